package bench.catalog.error;

import java.io.Serial;
import java.util.List;

/** A request body that parses but breaks the field rules: one entry per invalid field. */
public final class ValidationException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    // Never serialised: Problems turns it into a 422 in the thread that threw it, so the list's
    // declared type, an interface javac cannot prove serialisable, does not matter.
    @SuppressWarnings("serial")
    private final List<FieldError> errors;

    public ValidationException(List<FieldError> errors) {
        super("invalid fields: " + errors, null, false, false);
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
