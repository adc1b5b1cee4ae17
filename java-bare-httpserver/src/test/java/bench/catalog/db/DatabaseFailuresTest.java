package bench.catalog.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.EOFException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** spec/API.md, "Unavailable: 503": which SQLSTATEs mean the database is unavailable, and only those. */
class DatabaseFailuresTest {

    @ParameterizedTest(name = "{0} ({1}) unavailable: {2}")
    @CsvSource({
            "08000, connection_exception,                   true",
            "08001, sqlclient_unable_to_establish_sqlconnection (the driver: refused), true",
            "08003, connection_does_not_exist (the driver: closed), true",
            "08004, sqlserver_rejected_establishment_of_sqlconnection, true",
            "08006, connection_failure (the driver: reset or end of stream), true",
            "08P01, protocol_violation,                     true",
            "53000, insufficient_resources,                 true",
            "53100, disk_full,                              true",
            "53200, out_of_memory,                          true",
            "53300, too_many_connections,                   true",
            "57P01, admin_shutdown,                         true",
            "57P02, crash_shutdown,                         true",
            "57P03, cannot_connect_now,                     true",
            "57P04, database_dropped,                       true",
            "57P05, idle_session_timeout,                   true",
            "23505, unique_violation,                       false",
            "23503, foreign_key_violation,                  false",
            "23502, not_null_violation,                     false",
            "57014, query_canceled,                         false",
            "57000, operator_intervention,                  false",
            "40P01, deadlock_detected,                      false",
            "40001, serialization_failure,                  false",
            "42P01, undefined_table,                        false",
            "22001, string_data_right_truncation,           false",
            "XX000, internal_error,                         false",
    })
    void classifiesBySqlState(String sqlState, String name, boolean unavailable) {
        assertEquals(unavailable, DatabaseFailures.isUnavailable(new SQLException(name, sqlState)));
    }

    @Test
    void theExhaustedPoolIsUnavailable() {
        // HikariCP's exception when no connection frees up within the connection timeout.
        assertTrue(DatabaseFailures.isUnavailable(
                new SQLTransientConnectionException("catalog - Connection is not available, request timed out after 5000ms")));
    }

    @Test
    void looksThroughCauses() {
        var refused = new SQLException("Connection to 127.0.0.1:5432 refused", "08001");
        assertTrue(DatabaseFailures.isUnavailable(new RuntimeException("wrapped", refused)));
        assertTrue(DatabaseFailures.isUnavailable(new SQLException("outer, no state", null, 0, refused)));
    }

    @Test
    void nothingElseIsUnavailable() {
        assertFalse(DatabaseFailures.isUnavailable(new SQLException("no SQLSTATE")));
        assertFalse(DatabaseFailures.isUnavailable(new IllegalStateException("a bug")));
        assertFalse(DatabaseFailures.isUnavailable(new EOFException("the client went away")));
    }
}
