package bench.catalog.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** spec/API.md's list of "unavailable", table-driven, as spec/README.md asks of every stack. */
class SqlStatesTest {

    @ParameterizedTest
    @CsvSource({
        "08006, true", "08001, true", "08000, true", "08003, true", "08004, true",
        "53300, true", "53100, true",
        "57P01, true", "57P02, true", "57P03, true", "57P04, true", "57P05, true",
        "23505, false", "23503, false", "23502, false", "57014, false", "40P01, false", "XX000, false",
        "57000, false", "57P06, false",
    })
    void unavailableIsClass08Class53And57P01To57P05(String sqlState, boolean unavailable) {
        assertEquals(unavailable, SqlStates.isUnavailable(sqlState));
        assertEquals(unavailable, SqlStates.isUnavailable(new RuntimeException(new SQLException("x", sqlState)), c -> null));
    }

    @Test
    void theDriversOwnIoFailuresAreUnavailable() {
        assertTrue(SqlStates.isUnavailable(new RuntimeException(new ConnectException("refused")), c -> null));
    }

    @Test
    void aSqlStateTheDriverReportsInItsOwnTypeIsRead() {
        RuntimeException driverError = new IllegalStateException("57P01 from the driver");
        assertTrue(SqlStates.isUnavailable(new RuntimeException(driverError), c -> c == driverError ? "57P01" : null));
        assertFalse(SqlStates.isUnavailable(new RuntimeException(driverError), c -> c == driverError ? "XX000" : null));
    }

    @Test
    void anythingElseIsNot() {
        assertFalse(SqlStates.isUnavailable(new IllegalArgumentException("bug"), c -> null));
    }
}
