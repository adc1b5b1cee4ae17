package bench.catalog.http;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

/** Checks {@link Text}, answering with the rule the value breaks. */
public final class TextValidator implements ConstraintValidator<Text, String> {

    private int max;
    private boolean required;

    @Override
    public void initialize(Text text) {
        max = text.max();
        required = text.required();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        String broken = brokenRule(value);
        if (broken == null) {
            return true;
        }
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(broken).addConstraintViolation();
        return false;
    }

    private String brokenRule(String value) {
        if (value == null) {
            return required ? "is required" : null;
        }
        if (required && value.chars().allMatch(c -> c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
            return "must not be blank";
        }
        if (value.indexOf('\0') >= 0) {
            return "must not contain U+0000";
        }
        if (value.codePointCount(0, value.length()) > max) {
            return "must be at most " + max + " characters";
        }
        return null;
    }
}
