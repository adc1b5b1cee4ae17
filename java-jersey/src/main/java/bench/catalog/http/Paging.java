package bench.catalog.http;

import bench.catalog.data.PageRequest;
import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@code ?page=&size=} of every list: Jersey binds them ({@link StrictIntegers}) and Bean
 * Validation checks their range before the resource method runs, a violation being a 400.
 */
final class Paging {

    static final String FIRST_PAGE = "0";
    static final String DEFAULT_SIZE = "20";

    private Paging() {
    }

    /** A page number: 0 or more. */
    @Documented
    @Min(0)
    @ReportAsSingleViolation
    @Constraint(validatedBy = {})
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @interface PageNumber {
        String message() default "page must be an integer >= 0";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    /** A page size: 1 to 100. */
    @Documented
    @Min(1)
    @Max(100)
    @ReportAsSingleViolation
    @Constraint(validatedBy = {})
    @Target(ElementType.PARAMETER)
    @Retention(RetentionPolicy.RUNTIME)
    @interface PageSize {
        String message() default "size must be an integer between 1 and 100";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    /** Only once validated: the size then fits an int. */
    static PageRequest request(long page, long size) {
        return new PageRequest(page, Math.toIntExact(size));
    }
}
