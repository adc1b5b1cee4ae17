package bench.catalog.http;

import bench.catalog.data.CategoryData;
import bench.catalog.data.ItemData;
import bench.catalog.errors.FieldError;
import bench.catalog.errors.InvalidFieldsException;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates parsed request bodies field by field, collecting every invalid field before
 * answering. Type checks are strict: "9.99" is not a price and 1.5 is not a stock.
 * Unknown fields, {@code id} and {@code updatedAt} are ignored.
 */
final class RequestBodies {

    private static final BigDecimal MAX_PRICE = new BigDecimal("99999999.99");

    private RequestBodies() {
    }

    static CategoryData category(JsonNode body) {
        Fields fields = new Fields(body);
        String code = fields.requiredString("code", 32);
        String name = fields.requiredString("name", 128);
        fields.throwIfInvalid();
        return new CategoryData(code, name);
    }

    static ItemData item(JsonNode body) {
        Fields fields = new Fields(body);
        String sku = fields.requiredString("sku", 64);
        String name = fields.requiredString("name", 128);
        BigDecimal price = fields.price("price");
        Integer stock = fields.stock("stock");
        String description = fields.optionalString("description", 16384);
        Long categoryId = fields.id("categoryId");
        fields.throwIfInvalid();
        return new ItemData(sku, name, price, stock, description, categoryId);
    }

    private static final class Fields {

        private final JsonNode body;
        private final List<FieldError> errors = new ArrayList<>();

        Fields(JsonNode body) {
            if (!body.isObject()) {
                throw new InvalidFieldsException("request body must be a JSON object",
                        List.of(new FieldError("", "must be a JSON object")));
            }
            this.body = body;
        }

        String requiredString(String name, int maxLength) {
            JsonNode value = body.get(name);
            if (value == null || value.isNull()) {
                return invalid(name, "is required");
            }
            if (!value.isTextual()) {
                return invalid(name, "must be a string");
            }
            String text = value.textValue();
            if (isBlank(text)) {
                return invalid(name, "must not be blank");
            }
            return checked(name, text, maxLength);
        }

        String optionalString(String name, int maxLength) {
            JsonNode value = body.get(name);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isTextual()) {
                return invalid(name, "must be a string or null");
            }
            return checked(name, value.textValue(), maxLength);
        }

        BigDecimal price(String name) {
            JsonNode value = body.get(name);
            if (value == null || !value.isNumber()) {
                return invalid(name, "must be a number");
            }
            BigDecimal price = value.decimalValue();
            if (price.signum() < 0 || price.compareTo(MAX_PRICE) > 0) {
                return invalid(name, "must be between 0 and " + MAX_PRICE.toPlainString());
            }
            if (price.stripTrailingZeros().scale() > 2) {
                return invalid(name, "must have at most 2 decimals");
            }
            return price.setScale(2);
        }

        Integer stock(String name) {
            JsonNode value = body.get(name);
            if (value == null || !value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
                return invalid(name, "must be an integer between 0 and " + Integer.MAX_VALUE);
            }
            return value.intValue();
        }

        Long id(String name) {
            JsonNode value = body.get(name);
            // 0 and negative ids are well formed; like any unknown id, the database rejects them.
            if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
                return invalid(name, "must be a 64-bit integer");
            }
            return value.longValue();
        }

        void throwIfInvalid() {
            if (!errors.isEmpty()) {
                throw new InvalidFieldsException("request body has invalid fields: "
                        + String.join(", ", errors.stream().map(FieldError::field).toList()), errors);
            }
        }

        private String checked(String name, String text, int maxLength) {
            // PostgreSQL cannot store U+0000 in text columns.
            if (text.indexOf('\0') >= 0) {
                return invalid(name, "must not contain U+0000");
            }
            // Code points, as PostgreSQL counts varchar lengths, not UTF-16 units.
            if (text.codePointCount(0, text.length()) > maxLength) {
                return invalid(name, "must be at most " + maxLength + " characters");
            }
            return text;
        }

        private <T> T invalid(String name, String message) {
            errors.add(new FieldError(name, name + " " + message));
            return null;
        }

        /** Blank as API.md defines it: empty, or only spaces, tabs, CR and LF. */
        private static boolean isBlank(String text) {
            return text.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r' || c == '\n');
        }
    }
}
