package bench.catalog.http.validation;

import jakarta.validation.ConstraintValidatorContext;

/** One message per failed rule, in place of the constraint's default. */
final class Violations {

    private Violations() {
    }

    static boolean fail(ConstraintValidatorContext context, String message) {
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(message).addConstraintViolation();
        return false;
    }
}
