package bench.catalog.data;

/**
 * How this application's driver reports a SQLSTATE, for {@link SqlStates}: JDBC's SQLException
 * is read there; the reactive client's own exception type is read by its implementation.
 */
public interface DriverErrors {

    /** The SQLSTATE that {@code cause} itself carries, or null. */
    String sqlStateOf(Throwable cause);

    /**
     * Whether {@code cause} itself is the pool's wait for a connection running out, where the pool
     * says so with neither a SQLSTATE nor a type of its own (spec/API.md counts it unavailable).
     */
    default boolean isPoolTimeout(Throwable cause) {
        return false;
    }

    default boolean isUnavailable(Throwable error) {
        if (SqlStates.isUnavailable(error, this::sqlStateOf)) {
            return true;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (isPoolTimeout(cause)) {
                return true;
            }
        }
        return false;
    }
}
