package bench.webflux.error;

import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeoutException;

import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.r2dbc.UncategorizedR2dbcException;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseErrorsTest {

	/** Which SQLSTATEs mean "the database is unavailable" (503); everything else is a 500. */
	@ParameterizedTest(name = "{0} unavailable: {1}")
	@CsvSource({
			"08006, true",  // connection_failure: reset, closed, EOF
			"08001, true",  // sqlclient_unable_to_establish_sqlconnection: refused
			"08003, true",  // connection_does_not_exist
			"08004, true",  // sqlserver_rejected_establishment_of_sqlconnection
			"53300, true",  // too_many_connections
			"53000, true",  // insufficient_resources
			"57P01, true",  // admin_shutdown
			"57P02, true",  // crash_shutdown
			"57P03, true",  // cannot_connect_now
			"57P04, true",  // database_dropped
			"57P05, true",  // idle_session_timeout
			"23505, false", // unique_violation
			"23503, false", // foreign_key_violation
			"23502, false", // not_null_violation
			"57014, false", // query_canceled
			"XX000, false", // internal_error
			"40P01, false", // deadlock_detected
			"40001, false", // serialization_failure
			"42601, false", // syntax_error
			"28P01, false", // invalid_password
	})
	void classifiesBySqlState(String sqlState, boolean unavailable) {
		// r2dbc-postgresql raises R2dbcNonTransientResourceException for classes 08, 53 and 57 alike
		// (57014 included): the SQLSTATE decides, not the exception's class.
		R2dbcException r2dbc = new R2dbcNonTransientResourceException("PostgreSQL said so", sqlState);
		assertThat(DatabaseErrors.isUnavailable(r2dbc)).isEqualTo(unavailable);
		// as Spring hands it over, whatever its translation made of it
		assertThat(DatabaseErrors.isUnavailable(new DataAccessResourceFailureException("x", r2dbc))).isEqualTo(unavailable);
		assertThat(DatabaseErrors.isUnavailable(new UncategorizedR2dbcException("x", "SELECT 1", r2dbc)))
			.isEqualTo(unavailable);
		assertThat(DatabaseErrors.isUnavailable(new RuntimeException(new R2dbcException("x", sqlState) {
		}))).isEqualTo(unavailable);
		// PgJDBC's, under the variant jdbc-bounded-elastic, as JdbcClient hands it over
		SQLException jdbc = new SQLException("PostgreSQL said so", sqlState);
		assertThat(DatabaseErrors.isUnavailable(jdbc)).isEqualTo(unavailable);
		assertThat(DatabaseErrors.isUnavailable(new UncategorizedSQLException("x", "SELECT 1", jdbc)))
			.isEqualTo(unavailable);
		assertThat(DatabaseErrors.isUnavailable(new DataAccessResourceFailureException("x", jdbc))).isEqualTo(unavailable);
	}

	@Test
	void noPooledConnectionInTimeIsAnOutage() {
		// r2dbc-pool's max-acquire-time, as Spring's ConnectionFactoryUtils wraps it
		assertThat(DatabaseErrors.isUnavailable(new DataAccessResourceFailureException("Failed to obtain R2DBC Connection",
				new R2dbcTimeoutException("Connection acquisition timed out after 5000ms", new TimeoutException()))))
			.isTrue();
	}

	@Test
	void noHikariConnectionInTimeIsAnOutageWhateverTheLastAttemptSaid() {
		// HikariCP's connection-timeout, carrying the SQLSTATE of its last failed attempt, if any
		for (String lastState : new String[] { null, "08001", "28P01" }) {
			assertThat(DatabaseErrors.isUnavailable(new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
					new SQLTransientConnectionException("bench - Connection is not available, request timed out after 5000ms.",
							lastState))))
				.isTrue();
		}
	}

	@Test
	void aConnectionTheDriverCouldNotOpenOrLostIsAnOutage() {
		// refused: r2dbc-postgresql's connection exception over Netty's ConnectException, no SQLSTATE
		assertThat(DatabaseErrors.isUnavailable(new DataAccessResourceFailureException("Failed to obtain R2DBC Connection",
				new R2dbcNonTransientResourceException("Cannot connect to localhost/127.0.0.1:5432",
						new ConnectException("Connection refused"))))).isTrue();
		// closed under a query
		assertThat(DatabaseErrors.isUnavailable(new DataAccessResourceFailureException("executeMany",
				new R2dbcNonTransientResourceException("Cannot exchange messages because the connection is closed"))))
			.isTrue();
		assertThat(DatabaseErrors.isUnavailable(new RuntimeException(new ClosedChannelException()))).isTrue();
	}

	@Test
	void anOrdinaryBugIsNot() {
		assertThat(DatabaseErrors.isUnavailable(new IllegalStateException("bug"))).isFalse();
		assertThat(DatabaseErrors.isUnavailable(new DataIntegrityViolationException("x",
				new R2dbcDataIntegrityViolationException("null value", "23502")))).isFalse();
	}

	@Test
	void readsTheSqlStateThroughTheWrappers() {
		var duplicate = new DuplicateKeyException("executeMany; SQL [INSERT ...]",
				new R2dbcDataIntegrityViolationException("duplicate key", "23505"));
		assertThat(DatabaseErrors.sqlState(duplicate)).contains(DatabaseErrors.UNIQUE_VIOLATION);
		assertThat(DatabaseErrors.is(duplicate, DatabaseErrors.UNIQUE_VIOLATION)).isTrue();
		assertThat(DatabaseErrors.is(duplicate, DatabaseErrors.FOREIGN_KEY_VIOLATION)).isFalse();
		assertThat(DatabaseErrors.sqlState(new RuntimeException("no state"))).isEmpty();
		var jdbcDuplicate = new DuplicateKeyException("PreparedStatementCallback; SQL [INSERT ...]",
				new SQLException("duplicate key", "23505"));
		assertThat(DatabaseErrors.is(jdbcDuplicate, DatabaseErrors.UNIQUE_VIOLATION)).isTrue();
	}

}
