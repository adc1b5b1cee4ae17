package bench.catalog.db;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The one classifier of database failures that mean "unavailable" (spec/API.md, "Unavailable:
 * 503"): SQLSTATE class 08 (connection exception, which is also how the PostgreSQL driver reports
 * its own I/O failures: refused 08001, closed 08003, reset or end of stream 08006), class 53
 * (insufficient resources), class 57P (shutdown, crash, cannot connect now, database dropped,
 * idle session timeout), and the pool's wait for a connection running out. Nothing else: any other
 * failure is unexpected.
 */
public final class DatabaseFailures {

    private DatabaseFailures() {
    }

    /** Whether {@code failure}, or any of its causes, says the database is unavailable. */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // HikariCP's answer when no connection frees up within its connection timeout.
            if (t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException e && isUnavailable(e.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    static boolean isUnavailable(String sqlState) {
        return sqlState != null
                && (sqlState.startsWith("08") || sqlState.startsWith("53") || sqlState.startsWith("57P"));
    }
}
