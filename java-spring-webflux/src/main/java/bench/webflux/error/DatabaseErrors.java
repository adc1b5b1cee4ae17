package bench.webflux.error;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;

import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;

import org.springframework.dao.DataAccessResourceFailureException;

/**
 * What PostgreSQL said, read from the cause chain of whatever Spring wrapped the driver's exception
 * in (r2dbc-postgresql's, or PgJDBC's under the variant jdbc-bounded-elastic), and the one place
 * that decides which failures mean "the database is unavailable" (503).
 */
public final class DatabaseErrors {

	public static final String UNIQUE_VIOLATION = "23505";

	public static final String FOREIGN_KEY_VIOLATION = "23503";

	private DatabaseErrors() {
	}

	/** The SQLSTATE of the first driver exception in the cause chain that carries one. */
	public static Optional<String> sqlState(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			String state = stateOf(cause);
			if (hasText(state)) {
				return Optional.of(state);
			}
		}
		return Optional.empty();
	}

	/** True when the database refused the statement with exactly this SQLSTATE. */
	public static boolean is(Throwable error, String sqlState) {
		return sqlState(error).filter(sqlState::equals).isPresent();
	}

	/**
	 * True when the database is out of reach: a server short of resources (SQLSTATE class 53,
	 * such as 53300 too_many_connections), shutting down or starting up (class 57P: 57P01
	 * admin_shutdown to 57P05), a connection exception (class 08); the driver's own I/O failures,
	 * which carry no SQLSTATE (refused, reset, closed, end of stream); and the pool's acquire
	 * timeout (r2dbc-pool's, or HikariCP's). The first SQLSTATE in the cause chain decides: any
	 * other (57014 query_canceled, XX000, 40P01, ...) is not an outage.
	 */
	public static boolean isUnavailable(Throwable error) {
		boolean noConnection = false;
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLTransientConnectionException) {
				// HikariCP: no connection within connection-timeout, whatever SQLSTATE of the last
				// failed attempt it carries
				return true;
			}
			String state = stateOf(cause);
			if (hasText(state)) {
				return isUnavailable(state);
			}
			// r2dbc-postgresql: a connection that could not be opened or was lost;
			// r2dbc-pool: no connection within max-acquire-time (or to create or validate one).
			if (cause instanceof R2dbcNonTransientResourceException || cause instanceof R2dbcTransientResourceException
					|| cause instanceof R2dbcTimeoutException) {
				return true;
			}
			if (cause instanceof IOException) {
				// refused (ConnectException), reset, closed channel: the I/O below either driver
				return true;
			}
			// Spring's words for "no connection could be had", used when nothing below says more.
			noConnection |= cause instanceof DataAccessResourceFailureException;
		}
		return noConnection;
	}

	/** SQLSTATE classes 08 (connection exception) and 53 (insufficient resources), and 57P. */
	public static boolean isUnavailable(String sqlState) {
		return sqlState.startsWith("08") || sqlState.startsWith("53") || sqlState.startsWith("57P");
	}

	private static String stateOf(Throwable error) {
		return switch (error) {
			case R2dbcException r2dbc -> r2dbc.getSqlState();
			case SQLException jdbc -> jdbc.getSQLState();
			default -> null;
		};
	}

	private static boolean hasText(String value) {
		return value != null && !value.isBlank();
	}

}
