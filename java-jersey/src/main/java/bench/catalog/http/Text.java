package bench.catalog.http;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A string that fits its PostgreSQL column, by spec/API.md's rules: at most {@link #max()} Unicode
 * code points ({@code @Size} counts UTF-16 units, so it would take 16 emoji for 32), no U+0000,
 * which PostgreSQL cannot store, and, when {@link #required()}, present and not blank, blank being
 * empty or only spaces, tabs, CR and LF ({@code @NotBlank} trims every whitespace character).
 */
@Documented
@Constraint(validatedBy = TextValidator.class)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT})
@Retention(RetentionPolicy.RUNTIME)
public @interface Text {

    int max();

    boolean required() default true;

    String message() default "must be text of at most {max} characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}
