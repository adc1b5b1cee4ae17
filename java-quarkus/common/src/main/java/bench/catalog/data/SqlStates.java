package bench.catalog.data;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.function.Function;

/**
 * What PostgreSQL's errors mean to the API: the one place that decides "unavailable" (spec/API.md,
 * "Unavailable: 503") and names the three constraints of db/schema.sql. The drivers report a
 * SQLSTATE in their own exception types, so each application passes how to read it from its own
 * ({@link #sqlState}).
 */
public final class SqlStates {

    public static final String UNIQUE_VIOLATION = "23505";
    public static final String FOREIGN_KEY_VIOLATION = "23503";
    public static final String CATEGORY_CODE_KEY = "category_code_key";
    public static final String ITEM_SKU_KEY = "item_sku_key";
    public static final String ITEM_CATEGORY_ID_FKEY = "item_category_id_fkey";

    private SqlStates() {
    }

    /**
     * Class 08 (connection exception), class 53 (insufficient resources) and 57P01–57P05
     * (shutdown, crash, cannot connect now, database dropped, idle session timeout).
     */
    public static boolean isUnavailable(String sqlState) {
        if (sqlState == null) {
            return false;
        }
        return sqlState.startsWith("08") || sqlState.startsWith("53") || sqlState.matches("57P0[1-5]");
    }

    /** The first SQLSTATE in the cause chain, as the driver's exception types report it. */
    public static Optional<String> sqlState(Throwable error, Function<Throwable, String> reader) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            String state = cause instanceof SQLException sql ? sql.getSQLState() : reader.apply(cause);
            if (state != null) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }

    /**
     * Unavailable by its SQLSTATE, or without one: the driver's own input/output failures
     * (refused, reset, closed, end of stream) and the pool's wait running out.
     */
    public static boolean isUnavailable(Throwable error, Function<Throwable, String> reader) {
        Optional<String> state = sqlState(error, reader);
        if (state.isPresent()) {
            return isUnavailable(state.get());
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof ClosedChannelException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
