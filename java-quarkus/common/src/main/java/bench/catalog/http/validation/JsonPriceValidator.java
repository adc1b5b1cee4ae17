package bench.catalog.http.validation;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.math.BigDecimal;

/**
 * Checks {@link JsonPrice} on the number's exact decimal value: the request's JSON is read with
 * {@code USE_BIG_DECIMAL_FOR_FLOATS} (JsonConfiguration), so no binary double ever rounds it.
 */
public final class JsonPriceValidator implements ConstraintValidator<JsonPrice, JsonNode> {

    private static final BigDecimal MAX = new BigDecimal("99999999.99");
    // Past this many digits of scale a value cannot have two decimals: its check would only cost
    // time (1e-400 has a scale of 400, 1e400 of -400).
    private static final int MAX_SCALE = 1_000;

    @Override
    public boolean isValid(JsonNode value, ConstraintValidatorContext context) {
        if (value == null || value.isNull()) {
            return Violations.fail(context, "is required");
        }
        if (!value.isNumber()) {
            return Violations.fail(context, "must be a number");
        }
        BigDecimal price = value.decimalValue();
        if (price.signum() < 0) {
            return Violations.fail(context, "must not be below 0");
        }
        if (Math.abs(price.scale()) > MAX_SCALE || price.compareTo(MAX) > 0) {
            return Violations.fail(context, "must be at most 99999999.99");
        }
        if (price.stripTrailingZeros().scale() > 2) {
            return Violations.fail(context, "must have at most 2 decimals");
        }
        return true;
    }

    /** The validated price as the column stores it: two decimals. */
    public static BigDecimal priceOf(JsonNode value) {
        return value.decimalValue().setScale(2);
    }
}
