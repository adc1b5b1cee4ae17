package bench.catalog.data;

/** The database cannot be reached, or gave no pooled connection in time ({@link DatabaseErrors#isUnavailable}). */
public final class DatabaseUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseUnavailableException(Throwable cause) {
        super("the database is unavailable", cause, false, false);
    }
}
