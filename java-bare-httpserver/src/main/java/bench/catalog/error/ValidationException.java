package bench.catalog.error;

import java.util.List;

/** A request body that parses but breaks the field rules: one entry per invalid field. */
public final class ValidationException extends RuntimeException {

    private final List<FieldError> errors;

    public ValidationException(List<FieldError> errors) {
        super("invalid fields: " + errors, null, false, false);
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
