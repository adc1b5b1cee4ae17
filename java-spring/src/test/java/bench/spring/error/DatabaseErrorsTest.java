package bench.spring.error;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.hibernate.TransactionException;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.orm.jpa.JpaSystemException;
import org.springframework.transaction.CannotCreateTransactionException;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseErrorsTest {

	@Test
	void readsTheSqlStateThroughTheWrappers() {
		var duplicate = new DataIntegrityViolationException("could not execute statement",
				new RuntimeException(new SQLException("duplicate key", "23505")));
		assertThat(DatabaseErrors.sqlState(duplicate)).contains(DatabaseErrors.UNIQUE_VIOLATION);
		assertThat(DatabaseErrors.isUnavailable(duplicate)).isFalse();
	}

	@Test
	void recognisesAnUnreachableDatabase() {
		assertThat(DatabaseErrors.isUnavailable(new CannotCreateTransactionException("no connection",
				new SQLTransientConnectionException("bench - Connection is not available")))).isTrue();
		assertThat(DatabaseErrors.isUnavailable(new SQLException("terminating connection", "57P01"))).isTrue();
		assertThat(DatabaseErrors.isUnavailable(new SQLException("connection refused", "08001"))).isTrue();
	}

	@Test
	void aRollbackOnAConnectionThePoolHasEvictedIsAnOutageToo() {
		var rollback = new JpaSystemException(new TransactionException("Unable to rollback against JDBC Connection",
				new SQLException("Connection is closed")));
		assertThat(DatabaseErrors.isUnavailable(rollback)).isTrue();
	}

	@Test
	void anOrdinaryBugIsNot() {
		assertThat(DatabaseErrors.isUnavailable(new IllegalStateException("bug"))).isFalse();
		assertThat(DatabaseErrors.isUnavailable(new SQLException("syntax error", "42601"))).isFalse();
	}

}
