package bench.catalog.http;

import java.util.List;

/** A JSON body that breaks field rules: one {@link FieldError} for each invalid property. */
final class InvalidFieldsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** {@code field} is the JSON property's name, or "" for the body as a whole. */
    record FieldError(String field, String message) {}

    @SuppressWarnings("serial") // a List.of(...) of records: never serialised
    private final List<FieldError> errors;

    InvalidFieldsException(List<FieldError> errors) {
        super("the body has invalid fields", null, false, false);
        this.errors = List.copyOf(errors);
    }

    List<FieldError> errors() {
        return errors;
    }
}
