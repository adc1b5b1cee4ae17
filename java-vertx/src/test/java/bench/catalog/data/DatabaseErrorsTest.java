package bench.catalog.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class DatabaseErrorsTest {

    @ParameterizedTest(name = "SQLSTATE {0} unavailable: {1}")
    @CsvSource({
        "08006, true", "08001, true", "08000, true", "08003, true", "08004, true",
        "53300, true", "53200, true",
        "57P01, true", "57P02, true", "57P03, true", "57P04, true", "57P05, true",
        "23505, false", "23503, false", "23502, false", "57014, false", "40P01, false", "XX000, false",
    })
    void classifiesBySqlState(String sqlState, boolean unavailable) {
        assertEquals(unavailable, DatabaseErrors.isUnavailable(pg(sqlState)));
    }

    @Test
    void theDriversOwnFailuresAreUnavailable() {
        assertEquals(true, DatabaseErrors.isUnavailable(new ConnectException("Connection refused")));
        assertEquals(true, DatabaseErrors.isUnavailable(ClosedConnectionException.INSTANCE));
        assertEquals(true, DatabaseErrors.isUnavailable(VertxException.noStackTrace("Timeout waiting for connection")));
        assertEquals(true, DatabaseErrors.isUnavailable(VertxException.noStackTrace("Timeout")));
        assertEquals(true, DatabaseErrors.isUnavailable(new VertxException("wrapped", new ConnectException("refused"))));
    }

    @Test
    void otherFailuresAreNot() {
        assertEquals(false, DatabaseErrors.isUnavailable(new IllegalStateException("a bug")));
        assertEquals(false, DatabaseErrors.isUnavailable(VertxException.noStackTrace("something else")));
    }

    @Test
    void constraintViolationsAreReadByTheOperation() {
        assertInstanceOf(CodeTakenException.class, DatabaseErrors.onCategoryWrite(pg("23505"), "CAT-0001"));
        assertInstanceOf(CategoryInUseException.class, DatabaseErrors.onCategoryDelete(pg("23503"), 1));
        assertInstanceOf(SkuTakenException.class, DatabaseErrors.onItemWrite(pg("23505"), "SKU-000001", 1));
        assertInstanceOf(UnknownCategoryException.class, DatabaseErrors.onItemWrite(pg("23503"), "S", 0));
        assertInstanceOf(DatabaseUnavailableException.class, DatabaseErrors.onItemWrite(pg("57P01"), "S", 1));
    }

    @Test
    void otherIntegrityErrorsStayUnexpected() {
        PgException notNull = pg("23502");
        PgException check = pg("23514");
        assertSame(notNull, DatabaseErrors.onItemWrite(notNull, "S", 1));
        assertSame(check, DatabaseErrors.onCategoryWrite(check, "C"));
    }

    private static PgException pg(String sqlState) {
        return new PgException("message", "ERROR", sqlState, null);
    }
}
