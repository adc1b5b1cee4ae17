package bench.catalog.http.validation;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** Checks {@link JsonText} on the JSON value as it was sent. */
public final class JsonTextValidator implements ConstraintValidator<JsonText, JsonNode> {

    private int max;
    private boolean required;

    @Override
    public void initialize(JsonText constraint) {
        this.max = constraint.max();
        this.required = constraint.required();
    }

    @Override
    public boolean isValid(JsonNode value, ConstraintValidatorContext context) {
        if (value == null || value.isNull()) {
            return !required || Violations.fail(context, "is required");
        }
        if (!value.isTextual()) {
            return Violations.fail(context, "must be a string");
        }
        String text = value.textValue();
        if (required && text.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            return Violations.fail(context, "must not be blank");
        }
        if (text.indexOf('\0') >= 0) {
            return Violations.fail(context, "must not contain U+0000");
        }
        if (text.codePointCount(0, text.length()) > max) {
            return Violations.fail(context, "must be at most " + max + " characters");
        }
        return true;
    }
}
