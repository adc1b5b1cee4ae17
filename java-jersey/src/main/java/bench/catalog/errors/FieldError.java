package bench.catalog.errors;

/** One invalid field of a request body; {@code field} is the JSON property, "" for the body itself. */
public record FieldError(String field, String message) {
}
