package bench.catalog.stock;

import bench.catalog.error.UpstreamException;
import bench.catalog.error.UpstreamException.Kind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client against a fake upstream: each answer of the upstream to a quantity or an UpstreamException. */
class StockClientTest {

    private static FakeUpstream upstream;
    private static StockClient client;

    @BeforeAll
    static void start() throws IOException {
        upstream = new FakeUpstream();
        client = new StockClient(upstream.url());
    }

    @AfterAll
    static void stop() {
        client.close();
        upstream.close();
    }

    private static Kind failure(Executable call) {
        return assertThrows(UpstreamException.class, call).kind();
    }

    @Test
    void theQuantityOfTheAnswerIsReturned() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.quantity(id, "345"));
        assertEquals(345, client.quantity(id));
        List<FakeUpstream.Asked> asked = upstream.asked(id);
        assertEquals(1, asked.size());
        assertTrue(asked.getFirst().accept().contains("application/json"), asked.getFirst().accept());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "2147483647"})
    void quantitiesAtTheBounds(String quantity) throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.quantity(id, quantity));
        assertEquals(Integer.parseInt(quantity), client.quantity(id));
    }

    @Test
    void aNegativeIdIsAskedForAsItIs() throws Exception {
        long id = -upstream.newId();
        upstream.script(id, FakeUpstream.quantity(id, "4"));
        assertEquals(4, client.quantity(id));
    }

    @Test
    void anAnswerWithinTheTimeoutIsServed() throws Exception {
        long id = upstream.newId();
        upstream.script(id, upstream.after(Duration.ofMillis(300), FakeUpstream.quantity(id, "9")));
        assertEquals(9, client.quantity(id));
    }

    @Test
    void noStockRecord() {
        long id = upstream.newId();
        var failure = assertThrows(UpstreamException.class, () -> client.quantity(id));
        assertEquals(Kind.NO_RECORD, failure.kind());
        assertEquals("no stock record for item " + id, failure.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 409, 429, 500, 503})
    void anyOtherStatusIsABadAnswerAskedOnce(int status) {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.json(status, "{\"detail\":\"upstream trouble\"}"));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
        assertEquals(1, upstream.asked(id).size(), "no retries");
    }

    @Test
    void aRedirectIsNotFollowed() {
        long id = upstream.newId();
        long elsewhere = upstream.newId();
        upstream.script(elsewhere, FakeUpstream.quantity(elsewhere, "8"));
        upstream.script(id, FakeUpstream.redirect("/stock/" + elsewhere));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
        assertEquals(List.of(), upstream.asked(elsewhere));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "", "{\"quantity\": 5", "{\"quantity\": 5} 6", "[{\"quantity\": 5}]", "[]",
            "\"5\"", "5", "null", "true"})
    void anAnswerThatIsNotAJsonObjectIsABadAnswer(String answer) {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.json(200, answer));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
    }

    @Test
    void htmlIsABadAnswer() {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.body("text/html", 200, "<html><body>quantity: 5</body></html>"));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
    }

    @Test
    void anAnswerPastTheLimitIsABadAnswer() {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.json(200, "{\"quantity\":5,\"padding\":\"" + "x".repeat(StockClient.MAX_ANSWER) + "\"}"));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"5\"", "1.5", "5.0", "1e2", "-1", "2147483648", "99999999999999999999", "true", "null",
            "{\"value\": 5}", "[5]"})
    void anInvalidQuantityIsABadAnswer(String quantity) {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.quantity(id, quantity));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
    }

    @Test
    void aMissingQuantityIsABadAnswer() {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.json(200, "{\"itemId\":" + id + ",\"stock\":5}"));
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsABadAnswer() {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.drop());
        assertEquals(Kind.BAD_ANSWER, failure(() -> client.quantity(id)));
    }

    @Test
    void anUpstreamThatDoesNotAnswerTimesOutAfterASecond() {
        long id = upstream.newId();
        upstream.script(id, upstream.hang());
        long started = System.nanoTime();
        assertEquals(Kind.TIMEOUT, failure(() -> client.quantity(id)));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(Duration.ofMillis(900)) >= 0 && took.compareTo(Duration.ofSeconds(3)) < 0,
                "timed out after " + took);
    }

    @Test
    void aRefusedConnectionIsABadAnswerAskedOnce() throws IOException {
        int port;
        try (var closedAgain = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closedAgain.getLocalPort();
        }
        try (var refused = new StockClient(URI.create("http://127.0.0.1:" + port))) {
            long started = System.nanoTime();
            assertEquals(Kind.BAD_ANSWER, failure(() -> refused.quantity(5)));
            assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(1)) < 0);
        }
    }

    @Test
    void aBurstIsServedOnThePool() throws Exception {
        long id = upstream.newId();
        upstream.script(id, upstream.after(Duration.ofMillis(50), FakeUpstream.quantity(id, "77")));
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> burst = IntStream.range(0, 200)
                    .mapToObj(i -> threads.submit((Callable<Integer>) () -> client.quantity(id))).toList();
            for (Future<Integer> quantity : burst) {
                assertEquals(77, quantity.get());
            }
        }
    }
}
