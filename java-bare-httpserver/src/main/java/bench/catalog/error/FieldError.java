package bench.catalog.error;

/** One invalid property of a request body; {@code field} is "" when the body itself is wrong. */
public record FieldError(String field, String message) {
}
