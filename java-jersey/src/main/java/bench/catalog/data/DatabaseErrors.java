package bench.catalog.data;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.hibernate.JDBCException;

/**
 * Reads what PostgreSQL said out of the exception chains that Hibernate and HikariCP build, and
 * is the one place that decides whether a database failure means "unavailable" (503).
 */
public final class DatabaseErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private DatabaseErrors() {
    }

    /** The first SQLSTATE found along the cause chain, or null. */
    static String sqlState(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String state = ownSqlState(t);
            if (state != null) {
                return state;
            }
        }
        return null;
    }

    /**
     * True when the database is unavailable, as {@code spec/API.md} lists it: SQLSTATE class 08
     * (connection exception: refused, reset, closed, EOF, which is how the PostgreSQL driver
     * reports its own I/O failures), class 53 (insufficient resources, e.g. 53300 too many
     * connections) or class 57P (the server shutting down or starting: 57P01..57P05), anywhere
     * along the cause chain; or a connection exception without an SQLSTATE, which is how HikariCP
     * reports that no pooled connection freed up within its 5 s timeout. Anything else (57014
     * query_canceled, XX000, 40P01, an integrity error no repository expected, ...) is not.
     */
    public static boolean isUnavailable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            String state = ownSqlState(t);
            if (state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    private static String ownSqlState(Throwable t) {
        return switch (t) {
            case JDBCException e -> e.getSQLState();
            case SQLException e -> e.getSQLState();
            default -> null;
        };
    }
}
