package bench.catalog.errors;

import java.util.List;

/** A request body that parsed but holds invalid values, one {@link FieldError} per field. */
public final class InvalidFieldsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<FieldError> errors;

    public InvalidFieldsException(String message, List<FieldError> errors) {
        super(message, null, false, false);
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
