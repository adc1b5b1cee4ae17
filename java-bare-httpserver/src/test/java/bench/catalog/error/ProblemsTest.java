package bench.catalog.error;

import bench.catalog.error.ConstraintViolation.Kind;
import bench.catalog.json.JsonParseException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The one error map: status, RFC 9110 title, and the JSON property of a 422. */
class ProblemsTest {

    /** The 500s below are logged with their cause on purpose; the test output need not show them. */
    private static final Logger LOG = Logger.getLogger(Problems.class.getName());

    @BeforeAll
    static void quiet() {
        LOG.setLevel(Level.OFF);
    }

    @AfterAll
    static void loud() {
        LOG.setLevel(null);
    }

    @ParameterizedTest
    @CsvSource({
            "400, Bad Request", "404, Not Found", "405, Method Not Allowed", "409, Conflict",
            "413, Content Too Large", "415, Unsupported Media Type", "422, Unprocessable Content",
            "500, Internal Server Error", "502, Bad Gateway", "503, Service Unavailable", "504, Gateway Timeout"})
    void titlesAreTheReasonPhrasesOfRfc9110(int status, String title) {
        assertEquals(title, Problems.title(status));
    }

    @Test
    void mapsTheStockUpstreamsAnswers() {
        var noRecord = Problems.from(new UpstreamException(UpstreamException.Kind.NO_RECORD, "no stock record for item 5", null));
        assertEquals(404, noRecord.status());
        assertEquals("no stock record for item 5", noRecord.detail());
        var failed = Problems.from(new UpstreamException(UpstreamException.Kind.BAD_ANSWER, "status 500", null));
        assertEquals(502, failed.status());
        assertFalse(failed.detail().contains("500"), "what the upstream did is logged, not shown");
        assertEquals(504, Problems.from(new UpstreamException(UpstreamException.Kind.TIMEOUT, "timed out", null)).status());
    }

    @Test
    void mapsTheHttpLayersOwnRefusals() {
        assertEquals(400, Problems.from(ApiException.badRequest("x")).status());
        assertEquals(404, Problems.from(ApiException.notFound("x")).status());
        assertEquals(413, Problems.from(ApiException.contentTooLarge(1)).status());
        assertEquals(415, Problems.from(ApiException.unsupportedMediaType()).status());
        var methodNotAllowed = Problems.from(ApiException.methodNotAllowed("PATCH", "GET, PUT"));
        assertEquals(405, methodNotAllowed.status());
        assertEquals("GET, PUT", methodNotAllowed.allow());
        assertEquals(400, Problems.from(new JsonParseException("unexpected character", 3)).status());
    }

    @Test
    void listsEveryInvalidField() {
        var errors = List.of(new FieldError("sku", "is required"), new FieldError("price", "must be a number"));
        var problem = Problems.from(new ValidationException(errors));
        assertEquals(422, problem.status());
        assertEquals(errors, problem.errors());
    }

    @ParameterizedTest
    @CsvSource({
            "CATEGORY_CODE_TAKEN, 409, ''",
            "ITEM_SKU_TAKEN, 409, ''",
            "CATEGORY_STILL_REFERENCED, 409, ''",
            "UNKNOWN_CATEGORY, 422, categoryId"})
    void mapsConstraintViolations(Kind kind, int status, String field) {
        var problem = Problems.from(new ConstraintViolation(kind, "what was wrong"));
        assertEquals(status, problem.status());
        assertEquals("what was wrong", problem.detail());
        assertEquals(field.isEmpty() ? List.of() : List.of(new FieldError(field, "what was wrong")), problem.errors());
    }

    @ParameterizedTest
    @ValueSource(strings = {"08006", "08001", "53300", "57P01", "57P03"})
    void anUnavailableDatabaseIs503(String sqlState) {
        assertEquals(503, Problems.from(new SQLException("gone", sqlState)).status());
        assertEquals(503, Problems.from(new SQLTransientConnectionException("pool timeout")).status());
    }

    /** An integrity error the data layer does not recognise is a bug: 500, never a 409. */
    @ParameterizedTest
    @ValueSource(strings = {"23502", "23514", "23505", "23503", "57014", "40P01", "XX000"})
    void anyOtherDatabaseErrorIs500WithoutItsText(String sqlState) {
        var problem = Problems.from(new SQLException("ERROR: secret SQL text", sqlState));
        assertEquals(500, problem.status());
        assertEquals("Internal Server Error", problem.title());
        assertFalse(problem.detail().contains("secret"), problem.detail());
    }
}
