package bench.spring.error;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/** What PostgreSQL said, read from the cause chain of whatever Spring and Hibernate wrapped it in. */
public final class DatabaseErrors {

	public static final String UNIQUE_VIOLATION = "23505";

	public static final String FOREIGN_KEY_VIOLATION = "23503";

	private DatabaseErrors() {
	}

	/** The SQLSTATE of the first {@link SQLException} in the cause chain that carries one. */
	public static Optional<String> sqlState(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql && sql.getSQLState() != null) {
				return Optional.of(sql.getSQLState());
			}
		}
		return Optional.empty();
	}

	/**
	 * True when the database could not be reached: no pooled connection within the timeout, a refused
	 * or broken connection (SQLSTATE class 08), or a server shutting down or starting up (57P01..57P03).
	 */
	public static boolean isUnavailable(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof CannotCreateTransactionException || cause instanceof CannotGetJdbcConnectionException
					|| cause instanceof DataAccessResourceFailureException
					|| cause instanceof SQLTransientConnectionException || cause instanceof ConnectException) {
				return true;
			}
			if (cause instanceof SQLException sql && isConnectionLost(sql)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isConnectionLost(SQLException sql) {
		String state = sql.getSQLState();
		if (state == null) {
			// HikariCP's handle on a connection it has already evicted as broken, without a SQLSTATE:
			// the rollback after a query failed because PostgreSQL went away ends here, and Spring
			// reports the failed rollback instead of the failed query.
			return "Connection is closed".equals(sql.getMessage());
		}
		return state.startsWith("08") || state.startsWith("57P");
	}

}
