package bench.catalog.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /items/{id}/stock} against {@link StockUpstreamStub} (spec/API.md, "The stock of an
 * item"): the application's own REST client with its settings (the timeouts, no redirects, the
 * default exception mapper off) and StockService's reading of each answer. Each application runs
 * these through a {@code @QuarkusTest} subclass that names the stub as its test resource; the item
 * ids are the stub's script.
 */
public abstract class StockContractTest {

    private static final String PROBLEM = "application/problem+json";

    /** The contract's timeout, and the most the suite allows for the 504 that follows it. */
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(3);

    @Test
    void answersTheQuantityAskingForTheIdInCanonicalDecimal() {
        // The stub answers /stock/5 alone with 12, and only to Accept: application/json.
        for (String written : List.of("5", "+5", "005")) {
            given().get("/items/" + written + "/stock").then().statusCode(200)
                    .header("Content-Type", startsWith("application/json"))
                    .body("itemId", equalTo(5))
                    .body("quantity", equalTo(12));
        }
    }

    @Test
    void answersTheIdAskedForAndTheBoundsOfAQuantity() {
        given().get("/items/-3/stock").then().statusCode(200)
                .body("itemId", equalTo(-3)).body("quantity", equalTo(0));
        given().get("/items/6/stock").then().statusCode(200)
                .body("itemId", equalTo(6)).body("quantity", equalTo(Integer.MAX_VALUE));
    }

    @Test
    void noRecordIsA404() {
        given().get("/items/4/stock").then().statusCode(404).contentType(PROBLEM)
                .body("detail", equalTo("no stock record for item 4"));
    }

    @Test
    void aMalformedIdIsA400() {
        given().get("/items/abc/stock").then().statusCode(400).contentType(PROBLEM);
        given().get("/items/99999999999999999999/stock").then().statusCode(400).contentType(PROBLEM);
    }

    @Test
    void anyOtherStatusIsA502AndARedirectIsNotFollowed() {
        for (int id : new int[] {7, 8, 9}) {
            given().get("/items/" + id + "/stock").then().statusCode(502).contentType(PROBLEM)
                    .body("title", equalTo("Bad Gateway"))
                    .body("detail", equalTo("the stock service failed"));
        }
    }

    @Test
    void a200WithoutAJsonIntegerQuantityInRangeIsA502() {
        for (int id = 10; id <= 19; id++) {
            given().get("/items/" + id + "/stock").then().statusCode(502).contentType(PROBLEM);
        }
    }

    @Test
    void aConnectionClosedBeforeAnAnswerIsA502() {
        given().get("/items/20/stock").then().statusCode(502).contentType(PROBLEM);
    }

    @Test
    void noAnswerWithinTheTimeoutIsA504() {
        long started = System.nanoTime();
        given().get("/items/22/stock").then().statusCode(504).contentType(PROBLEM)
                .body("title", equalTo("Gateway Timeout"))
                .body("detail", equalTo("the stock service did not answer in time"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(TIMEOUT.multipliedBy(9).dividedBy(10)) >= 0, "answered before the timeout: " + took);
        assertTrue(took.compareTo(ANSWER_WITHIN) < 0, "answered after " + took);
    }

    @Test
    void aFailedUpstreamIsLoggedInOneLineWithoutAStackTrace() {
        try (LogCapture log = LogCapture.start()) {
            given().get("/items/7/stock").then().statusCode(502);
            List<LogRecord> records = log.records();
            String logged = records.stream().map(LogCapture::text).toList().toString();
            // The application's own lines: Quarkus' access log may be on (LOG_REQUESTS) and is not one of them.
            List<LogRecord> own = records.stream()
                    .filter(logRecord -> String.valueOf(logRecord.getLoggerName()).startsWith("bench.catalog"))
                    .toList();
            assertEquals(1, own.size(), logged);
            assertEquals(Level.WARNING.intValue(), own.getFirst().getLevel().intValue(), logged);
            assertTrue(records.stream().allMatch(logRecord -> logRecord.getThrown() == null), "a stack trace: " + logged);
        }
    }
}
