package bench.catalog.http.validation;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A price (spec/API.md, "price"): a JSON number whose exact decimal value, as written, is from 0
 * to 99,999,999.99 with at most two decimals; required.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = JsonPriceValidator.class)
public @interface JsonPrice {

    String message() default "must be a number";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
