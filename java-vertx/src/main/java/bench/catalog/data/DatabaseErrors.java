package bench.catalog.data;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.io.IOException;
import java.util.Set;

/** What PostgreSQL and the driver report, turned into the domain's errors (spec/API.md, "Database errors"). */
public final class DatabaseErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private DatabaseErrors() {}

    /**
     * True when the failure means the database is unavailable: SQLSTATE class 08 (connection
     * exception), class 53 (insufficient resources), 57P01 to 57P05 (shut down, cannot connect
     * now, dropped, idle session timeout); the driver's own I/O failures (refused, reset, closed,
     * end of stream); and the pool's wait for a connection running out. Nothing else.
     */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PgException pg) {
                return isUnavailableState(pg.getSqlState());
            }
            if (cause instanceof IOException || cause instanceof ClosedConnectionException || isPoolWaitTimeout(cause)) {
                return true;
            }
        }
        return false;
    }

    static boolean isUnavailableState(String sqlState) {
        return sqlState != null
                && (sqlState.startsWith("08") || sqlState.startsWith("53") || sqlState.matches("57P0[1-5]"));
    }

    /**
     * The pool fails a request whose wait for a connection ran out with a bare VertxException: "Timeout
     * waiting for connection" for a query on the pool, "Timeout" for getConnection()
     * (vertx-sql-client 5.0's SqlConnectionPool). It has no exception type of its own for either.
     */
    private static final Set<String> POOL_WAIT_TIMEOUTS = Set.of("Timeout waiting for connection", "Timeout");

    static boolean isPoolWaitTimeout(Throwable failure) {
        return failure instanceof VertxException && POOL_WAIT_TIMEOUTS.contains(failure.getMessage());
    }

    /** For the failure of any statement: unavailable, or the failure itself (a logged 500). */
    static Throwable translate(Throwable failure) {
        return isUnavailable(failure) ? new DatabaseUnavailableException(failure) : failure;
    }

    /** A category insert or update: a taken code is the only constraint it can break. */
    static Throwable onCategoryWrite(Throwable failure, String code) {
        if (sqlState(failure, UNIQUE_VIOLATION)) {
            return new CodeTakenException(code);
        }
        return translate(failure);
    }

    /** A category delete: items that still belong to it. */
    static Throwable onCategoryDelete(Throwable failure, long id) {
        if (sqlState(failure, FOREIGN_KEY_VIOLATION)) {
            return new CategoryInUseException(id);
        }
        return translate(failure);
    }

    /** An item insert or update: a taken sku, or a category that does not exist. */
    static Throwable onItemWrite(Throwable failure, String sku, long categoryId) {
        if (sqlState(failure, UNIQUE_VIOLATION)) {
            return new SkuTakenException(sku);
        }
        if (sqlState(failure, FOREIGN_KEY_VIOLATION)) {
            return new UnknownCategoryException(categoryId);
        }
        return translate(failure);
    }

    private static boolean sqlState(Throwable failure, String sqlState) {
        return failure instanceof PgException pg && sqlState.equals(pg.getSqlState());
    }
}
