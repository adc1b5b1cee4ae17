package bench.datarest.error;

import java.net.ConnectException;
import java.net.URI;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * What PostgreSQL said, read from the cause chain of whatever Spring and Hibernate wrapped it in,
 * and the one place that decides which failures mean "the database is unavailable" (503), and how
 * that 503 reads: problem JSON, as every stack's ({@code /health} and {@link UnavailableHandler}).
 */
public final class DatabaseErrors {

	/**
	 * HikariCP's handle on a connection it has already evicted as broken says so without a
	 * SQLSTATE: the rollback after a query failed because PostgreSQL went away ends here, and
	 * Spring reports the failed rollback instead of the failed query.
	 */
	private static final String CLOSED_CONNECTION = "Connection is closed";

	private static final URI BLANK = URI.create("about:blank");

	private DatabaseErrors() {
	}

	/**
	 * True when the database is out of reach: no pooled connection within the pool's timeout, a
	 * connection the driver could not open or lost (refused, reset, closed, EOF: SQLSTATE class 08),
	 * a server short of resources (class 53, such as 53300 too_many_connections) or shutting down
	 * or starting up (class 57P: 57P01 admin_shutdown to 57P05). The first SQLSTATE in the cause
	 * chain decides; any other (57014 query_canceled, XX000, 40P01, ...) is not an outage.
	 */
	public static boolean isUnavailable(Throwable error) {
		boolean noConnection = false;
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLTransientConnectionException) {
				// HikariCP: no connection within connection-timeout (it may carry the last failure's state)
				return true;
			}
			if (cause instanceof SQLException sql) {
				String state = sql.getSQLState();
				if (state != null) {
					return isUnavailable(state);
				}
				if (CLOSED_CONNECTION.equals(sql.getMessage())) {
					return true;
				}
			}
			if (cause instanceof ConnectException) {
				return true;
			}
			// Spring's words for "no connection could be had", used when nothing below says more.
			noConnection |= cause instanceof CannotGetJdbcConnectionException
					|| cause instanceof CannotCreateTransactionException
					|| cause instanceof DataAccessResourceFailureException;
		}
		return noConnection;
	}

	/** SQLSTATE classes 08 (connection exception) and 53 (insufficient resources), and 57P. */
	public static boolean isUnavailable(String sqlState) {
		return sqlState.startsWith("08") || sqlState.startsWith("53") || sqlState.startsWith("57P");
	}

	/**
	 * The 503 of an outage, API.md's problem JSON: {@code application/problem+json} whatever the
	 * request accepts, {@code type} about:blank (which Spring leaves out unless set), RFC 9110's title.
	 */
	public static ResponseEntity<ProblemDetail> unavailable(String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
		problem.setType(BLANK);
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(problem);
	}

}
