package bench.catalog.errors;

/** The database refused a write that clashes with other rows: a taken key, or rows still referring. */
public final class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message, null, false, false);
    }
}
