package bench.catalog.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The members of a JSON object body, each read as the JSON type the contract gives it. Binding
 * the body straight to a record cannot do this: Jackson stops at the first member of a wrong type,
 * where spec/API.md lists every invalid field in one 422, and it coerces what the contract
 * refuses ({@code "3"} to 3, {@code 1.5} to 1, {@code 5} to {@code "5"}). A member of a wrong type
 * is noted with {@code message} and read as null; an absent member and {@code null} read as null,
 * which Bean Validation judges with the rest of the record.
 */
public final class JsonFields {

    static final String STRING = "must be a string";

    private final JsonNode object;
    private final List<String> names = new ArrayList<>();
    private final Map<String, String> errors = new LinkedHashMap<>();

    JsonFields(JsonNode object) {
        this.object = object;
    }

    public String string(String name, String message) {
        JsonNode value = member(name);
        if (value == null || value.isTextual()) {
            return value == null ? null : value.textValue();
        }
        return wrongType(name, message);
    }

    /**
     * The exact decimal value of a JSON number, as written (the mapper reads every number with a
     * fraction or an exponent as a {@link BigDecimal}), without trailing zeros: {@code 1.230} is
     * 1.23, so that {@code @Digits} counts the decimals of the value, not of its spelling.
     */
    public BigDecimal decimal(String name, String message) {
        JsonNode value = member(name);
        if (value == null || value.isNumber()) {
            return value == null ? null : value.decimalValue().stripTrailingZeros();
        }
        return wrongType(name, message);
    }

    /** A JSON number without a fraction that fits in 64 bits; {@code 1.5} and {@code 2^64} are not. */
    public Long integer(String name, String message) {
        JsonNode value = member(name);
        if (value == null || value.isIntegralNumber() && value.canConvertToLong()) {
            return value == null ? null : value.longValue();
        }
        return wrongType(name, message);
    }

    /** The names of the members read, in the order they were read. */
    List<String> names() {
        return names;
    }

    /** The members read with a wrong JSON type, with their messages. */
    Map<String, String> errors() {
        return errors;
    }

    private JsonNode member(String name) {
        names.add(name);
        JsonNode value = object.get(name);
        return value == null || value.isNull() ? null : value;
    }

    private <T> T wrongType(String name, String message) {
        errors.put(name, message);
        return null;
    }
}
