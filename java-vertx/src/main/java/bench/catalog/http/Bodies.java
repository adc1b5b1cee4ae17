package bench.catalog.http;

import bench.catalog.data.CategoryWrite;
import bench.catalog.data.ItemWrite;
import bench.catalog.http.InvalidFieldsException.FieldError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Write bodies: JSON read by Vert.x's own codec (400 when it does not parse), then the field
 * rules of spec/API.md, "Field rules", every invalid property listed in one 422.
 */
final class Bodies {

    private static final BigDecimal MAX_PRICE = new BigDecimal("99999999.99");
    private static final BigInteger MAX_STOCK = BigInteger.valueOf(Integer.MAX_VALUE);

    private Bodies() {}

    static CategoryWrite category(RoutingContext ctx) {
        JsonObject body = object(ctx);
        List<FieldError> errors = new ArrayList<>();
        String code = requiredText(body, "code", 32, errors);
        String name = requiredText(body, "name", 128, errors);
        throwIfAny(errors);
        return new CategoryWrite(code, name);
    }

    static ItemWrite item(RoutingContext ctx) {
        JsonObject body = object(ctx);
        List<FieldError> errors = new ArrayList<>();
        String sku = requiredText(body, "sku", 64, errors);
        String name = requiredText(body, "name", 128, errors);
        BigDecimal price = price(body, errors);
        BigInteger stock = integer(body, "stock", BigInteger.ZERO, MAX_STOCK, errors);
        String description = description(body, errors);
        BigInteger categoryId = integer(body, "categoryId",
                BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE), errors);
        throwIfAny(errors);
        return new ItemWrite(sku, name, price, stock.intValueExact(), description, categoryId.longValueExact());
    }

    /** The body as a JSON object: 400 when it is not JSON, 422 on the body when it is other JSON. */
    private static JsonObject object(RoutingContext ctx) {
        Buffer raw = ctx.body().buffer();
        if (raw == null || raw.length() == 0) {
            throw new BadRequestException("the body is empty; send a JSON object");
        }
        Object parsed;
        try {
            parsed = Json.decodeValue(raw);
        } catch (DecodeException e) {
            throw new BadRequestException("the body is not valid JSON");
        }
        if (parsed instanceof JsonObject object) {
            return object;
        }
        throw new InvalidFieldsException(List.of(new FieldError("", "must be a JSON object")));
    }

    private static String requiredText(JsonObject body, String field, int maxLength, List<FieldError> errors) {
        Object value = body.getValue(field);
        if (!(value instanceof String text)) {
            errors.add(new FieldError(field, value == null ? "is required" : "must be a string"));
            return null;
        }
        if (text.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            errors.add(new FieldError(field, "must not be blank"));
            return null;
        }
        return checkedText(text, field, maxLength, errors);
    }

    private static String description(JsonObject body, List<FieldError> errors) {
        Object value = body.getValue("description");
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            errors.add(new FieldError("description", "must be a string or null"));
            return null;
        }
        return checkedText(text, "description", 16_384, errors);
    }

    /** Lengths in code points, as PostgreSQL's varchar(n) counts; U+0000 is a character it cannot store. */
    private static String checkedText(String text, String field, int maxLength, List<FieldError> errors) {
        if (text.codePointCount(0, text.length()) > maxLength) {
            errors.add(new FieldError(field, "must be at most " + maxLength + " characters"));
            return null;
        }
        if (text.indexOf('\u0000') >= 0) {
            errors.add(new FieldError(field, "must not contain U+0000"));
            return null;
        }
        return text;
    }

    /**
     * The price as the exact decimal written in the body: Vert.x's codec hands a JSON number with
     * a fraction or an exponent over as a {@link BigDecimal} (JsonSupport), never as a double.
     */
    private static BigDecimal price(JsonObject body, List<FieldError> errors) {
        BigDecimal price = switch (body.getValue("price")) {
            case BigDecimal decimal -> decimal;
            case BigInteger integer -> new BigDecimal(integer);
            case Integer integer -> BigDecimal.valueOf(integer);
            case Long integer -> BigDecimal.valueOf(integer);
            case null, default -> null;
        };
        if (price == null) {
            errors.add(new FieldError("price", "must be a JSON number"));
            return null;
        }
        if (price.signum() < 0 || price.compareTo(MAX_PRICE) > 0) {
            errors.add(new FieldError("price", "must be between 0 and 99999999.99"));
            return null;
        }
        if (price.stripTrailingZeros().scale() > 2) {
            errors.add(new FieldError("price", "must have at most 2 decimals"));
            return null;
        }
        return price;
    }

    /** A JSON number without a fraction, within bounds; {@code 3.0} is a fraction here. */
    private static BigInteger integer(
            JsonObject body, String field, BigInteger min, BigInteger max, List<FieldError> errors) {
        BigInteger value = switch (body.getValue(field)) {
            case Integer integer -> BigInteger.valueOf(integer);
            case Long integer -> BigInteger.valueOf(integer);
            case BigInteger integer -> integer;
            case null, default -> null;
        };
        if (value == null) {
            errors.add(new FieldError(field, "must be an integer"));
            return null;
        }
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            errors.add(new FieldError(field, "must be between " + min + " and " + max));
            return null;
        }
        return value;
    }

    private static void throwIfAny(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw new InvalidFieldsException(errors);
        }
    }
}
