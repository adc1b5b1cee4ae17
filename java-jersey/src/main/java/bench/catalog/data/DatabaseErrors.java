package bench.catalog.data;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import org.hibernate.JDBCException;
import org.hibernate.exception.JDBCConnectionException;

/** Reads what PostgreSQL said out of the exception chains that Hibernate and HikariCP build. */
public final class DatabaseErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private DatabaseErrors() {
    }

    /** The first SQLSTATE found along the cause chain, or null. */
    static String sqlState(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String state = switch (t) {
                case JDBCException e -> e.getSQLState();
                case SQLException e -> e.getSQLState();
                default -> null;
            };
            if (state != null) {
                return state;
            }
        }
        return null;
    }

    /**
     * True when the database could not be reached or the connection was lost: no pooled
     * connection within the timeout, connection refused or broken (SQLSTATE class 08), or the
     * server shutting down (57P01..57P03).
     */
    public static boolean isUnavailable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof JDBCConnectionException
                    || t instanceof SQLTransientConnectionException
                    || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            String state = switch (t) {
                case JDBCException e -> e.getSQLState();
                case SQLException e -> e.getSQLState();
                default -> null;
            };
            if (state != null && (state.startsWith("08") || state.startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }
}
