package bench.catalog.error;

/**
 * A rule that only the database can check was broken by a write: a unique key is taken, a
 * reference names no row, or a row is still referenced. Thrown by the data-access code, which
 * knows which constraint its statement can break; {@link Problems} decides the HTTP answer.
 */
public final class ConstraintViolation extends RuntimeException {

    public enum Kind { DUPLICATE_KEY, UNKNOWN_REFERENCE, STILL_REFERENCED }

    private final Kind kind;
    private final String field;

    private ConstraintViolation(Kind kind, String field, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.field = field;
    }

    public static ConstraintViolation duplicateKey(String field, String message) {
        return new ConstraintViolation(Kind.DUPLICATE_KEY, field, message);
    }

    public static ConstraintViolation unknownReference(String field, String message) {
        return new ConstraintViolation(Kind.UNKNOWN_REFERENCE, field, message);
    }

    public static ConstraintViolation stillReferenced(String message) {
        return new ConstraintViolation(Kind.STILL_REFERENCED, "", message);
    }

    public Kind kind() {
        return kind;
    }

    /** The request property the broken constraint is about. */
    public String field() {
        return field;
    }
}
