package bench.catalog.http.validation;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A JSON number without a fractional part, from {@link #min} to {@link #max}; required. */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = JsonIntegerValidator.class)
public @interface JsonInteger {

    long min();

    long max();

    String message() default "must be an integer";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
