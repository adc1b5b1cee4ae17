package bench.catalog.http.validation;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.math.BigInteger;

/** Checks {@link JsonInteger}: a string, boolean, null or fraction is not an integer. */
public final class JsonIntegerValidator implements ConstraintValidator<JsonInteger, JsonNode> {

    private BigInteger min;
    private BigInteger max;

    @Override
    public void initialize(JsonInteger constraint) {
        this.min = BigInteger.valueOf(constraint.min());
        this.max = BigInteger.valueOf(constraint.max());
    }

    @Override
    public boolean isValid(JsonNode value, ConstraintValidatorContext context) {
        if (value == null || value.isNull()) {
            return Violations.fail(context, "is required");
        }
        if (!value.isIntegralNumber()) {
            return Violations.fail(context, "must be an integer");
        }
        BigInteger number = value.bigIntegerValue();
        if (number.compareTo(min) < 0 || number.compareTo(max) > 0) {
            return Violations.fail(context, "must be an integer from " + min + " to " + max);
        }
        return true;
    }
}
