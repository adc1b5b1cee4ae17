package bench.catalog.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.hibernate.exception.GenericJDBCException;
import org.hibernate.exception.JDBCConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which database failures mean "unavailable" (503): one list, spec/API.md's. */
class DatabaseErrorsTest {

    @ParameterizedTest(name = "{0} unavailable: {1}")
    @CsvSource({
        // class 08, connection exception: how the driver reports refused, reset, closed and EOF
        "08000, true", "08001, true", "08003, true", "08004, true", "08006, true", "08P01, true",
        // class 53, insufficient resources
        "53000, true", "53100, true", "53200, true", "53300, true", "53400, true",
        // class 57P, the server shutting down or starting
        "57P01, true", "57P02, true", "57P03, true", "57P04, true", "57P05, true",
        // anything else is a logged 500 (or a domain error the repositories translated first)
        "23505, false", "23503, false", "23502, false", "23514, false", "57014, false", "57000, false",
        "XX000, false", "40P01, false", "40001, false", "42P01, false", "22003, false", "55P03, false",
    })
    void sqlStateDecides(String state, boolean unavailable) {
        SQLException driver = new SQLException("from the driver", state);
        // as it reaches the mapper: Hibernate's wrapper, or the driver's exception deeper in the chain
        assertEquals(unavailable, DatabaseErrors.isUnavailable(new GenericJDBCException("wrapped", driver)));
        assertEquals(unavailable, DatabaseErrors.isUnavailable(
                new PersistenceException("outer", new RuntimeException("middle", driver))));
        assertEquals(unavailable, DatabaseErrors.isUnavailable(new JDBCConnectionException("wrapped", driver)));
    }

    /** HikariCP's answer when no pooled connection frees up within its timeout: no SQLSTATE of its own. */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void poolTimeoutIsUnavailable(boolean withCause) {
        SQLTransientConnectionException timeout = new SQLTransientConnectionException(
                "catalog - Connection is not available, request timed out after 5000ms",
                null, withCause ? new SQLException("Connection refused", "08001") : null);
        assertEquals(true, DatabaseErrors.isUnavailable(new JDBCConnectionException("Unable to acquire JDBC Connection", timeout)));
    }

    @Test
    void failuresWithoutAnySqlStateAreNotUnavailable() {
        assertEquals(false, DatabaseErrors.isUnavailable(new PersistenceException("no state")));
        assertEquals(false, DatabaseErrors.isUnavailable(new IllegalStateException("no state", new SQLException("none"))));
    }
}
