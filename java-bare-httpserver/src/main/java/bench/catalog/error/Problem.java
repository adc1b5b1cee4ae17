package bench.catalog.error;

import java.util.List;

/** An RFC 9457 problem: what an error response says. {@code allow} is only set on a 405. */
public record Problem(int status, String title, String detail, List<FieldError> errors, String allow) {
}
