package bench.catalog.error;

import java.io.Serial;

/**
 * A rule that only the database can check was broken by a write. Thrown by the data-access code,
 * which knows which constraint its statement can break; {@link Problems} decides the status and,
 * for a 422, the JSON property.
 */
public final class ConstraintViolation extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** Another category has the code. */
        CATEGORY_CODE_TAKEN,
        /** Another item has the sku. */
        ITEM_SKU_TAKEN,
        /** An item names a category that does not exist. */
        UNKNOWN_CATEGORY,
        /** A category still has items. */
        CATEGORY_STILL_REFERENCED
    }

    private final Kind kind;

    /** {@code message} says what was wrong in the API's words, without SQL or SQLSTATE. */
    public ConstraintViolation(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
