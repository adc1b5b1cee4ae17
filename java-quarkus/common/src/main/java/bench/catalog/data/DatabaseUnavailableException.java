package bench.catalog.data;

/** The database cannot be used now (spec/API.md, "Unavailable: 503"); see {@link SqlStates}. */
public final class DatabaseUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseUnavailableException(Throwable cause) {
        super("the database is unavailable", cause);
    }
}
