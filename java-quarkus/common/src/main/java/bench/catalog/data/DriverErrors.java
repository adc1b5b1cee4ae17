package bench.catalog.data;

/**
 * How this application's driver reports a SQLSTATE, for {@link SqlStates}: JDBC's SQLException
 * is read there; the reactive client's own exception type is read by its implementation.
 */
public interface DriverErrors {

    /** The SQLSTATE that {@code cause} itself carries, or null. */
    String sqlStateOf(Throwable cause);

    default boolean isUnavailable(Throwable error) {
        return SqlStates.isUnavailable(error, this::sqlStateOf);
    }
}
