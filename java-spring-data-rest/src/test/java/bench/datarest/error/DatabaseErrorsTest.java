package bench.datarest.error;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.hibernate.TransactionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.orm.jpa.JpaSystemException;
import org.springframework.transaction.CannotCreateTransactionException;

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
		SQLException sql = new SQLException("PostgreSQL said so", sqlState);
		assertThat(DatabaseErrors.isUnavailable(sql)).isEqualTo(unavailable);
		// as Spring and Hibernate hand it over, whatever Spring's translation made of it
		assertThat(DatabaseErrors.isUnavailable(new JpaSystemException(new RuntimeException(sql)))).isEqualTo(unavailable);
		assertThat(DatabaseErrors.isUnavailable(new DataAccessResourceFailureException("x", sql))).isEqualTo(unavailable);
		assertThat(DatabaseErrors.isUnavailable(new CannotCreateTransactionException("x", sql))).isEqualTo(unavailable);
	}

	@Test
	void noPooledConnectionInTimeIsAnOutage() {
		assertThat(DatabaseErrors.isUnavailable(new CannotCreateTransactionException("no connection",
				new SQLTransientConnectionException("bench - Connection is not available, request timed out after 5000ms"))))
			.isTrue();
		// HikariCP's timeout carries the state of the last failure to connect, whatever it was
		assertThat(DatabaseErrors.isUnavailable(new SQLTransientConnectionException("timed out", "28P01"))).isTrue();
		assertThat(DatabaseErrors.isUnavailable(new CannotGetJdbcConnectionException("no connection"))).isTrue();
	}

	@Test
	void aConnectionTheDriverCouldNotOpenOrThePoolHasEvictedIsAnOutage() {
		assertThat(DatabaseErrors.isUnavailable(new CannotGetJdbcConnectionException("x",
				new SQLException("refused", new ConnectException("Connection refused"))))).isTrue();
		var rollback = new JpaSystemException(new TransactionException("Unable to rollback against JDBC Connection",
				new SQLException("Connection is closed")));
		assertThat(DatabaseErrors.isUnavailable(rollback)).isTrue();
	}

	@Test
	void anOrdinaryBugIsNot() {
		assertThat(DatabaseErrors.isUnavailable(new IllegalStateException("bug"))).isFalse();
		assertThat(DatabaseErrors.isUnavailable(new SQLException("no state"))).isFalse();
	}

}
