package bench.datarest.validation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;

/**
 * A string column as PostgreSQL sees it: at most {@link #max()} Unicode code points (where
 * {@code @Size} counts UTF-16 units), no U+0000 (which PostgreSQL cannot store), and, when
 * {@link #required()}, present and not blank: blank is empty or only spaces, tabs, CR and LF
 * ({@code @NotBlank} also counts other whitespace, such as form feeds, as blank).
 */
@Documented
@Constraint(validatedBy = TextValidator.class)
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.PARAMETER })
@Retention(RetentionPolicy.RUNTIME)
public @interface Text {

	int max();

	boolean required() default true;

	String message() default "must be valid text";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

}
