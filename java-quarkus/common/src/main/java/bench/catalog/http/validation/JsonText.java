package bench.catalog.http.validation;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A JSON string of at most {@link #max} code points (as PostgreSQL's varchar counts), without
 * U+0000; when {@link #required}, present, not null and not blank (spaces, tabs, CR, LF only).
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = JsonTextValidator.class)
public @interface JsonText {

    int max();

    boolean required() default true;

    String message() default "must be a string";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
