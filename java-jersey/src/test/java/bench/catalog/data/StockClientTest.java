package bench.catalog.data;

import static bench.catalog.FakeStock.DROP;
import static bench.catalog.FakeStock.HANG;
import static bench.catalog.FakeStock.after;
import static bench.catalog.FakeStock.body;
import static bench.catalog.FakeStock.json;
import static bench.catalog.FakeStock.quantity;
import static bench.catalog.FakeStock.redirect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.FakeStock;
import bench.catalog.http.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client against a fake upstream: every answer of the upstream to a quantity or a domain error. No database. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StockClientTest {

    private FakeStock upstream;
    private StockClient client;

    @BeforeAll
    void start() throws IOException {
        upstream = FakeStock.start();
        client = new StockClient(upstream.url(), Json.newMapper());
    }

    @AfterAll
    void stop() {
        client.close();
        upstream.close();
    }

    private static int value(CompletionStage<Integer> quantity) throws Exception {
        return quantity.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static Throwable failure(CompletionStage<Integer> quantity) throws InterruptedException, TimeoutException {
        try {
            Integer value = quantity.toCompletableFuture().get(5, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got the quantity " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    void theQuantityOfTheAnswerIsReturned() throws Exception {
        long id = upstream.newId();
        upstream.script(id, quantity(id, "345"));
        assertEquals(345, value(client.quantity(id)));
        List<FakeStock.Asked> asked = upstream.asked(id);
        assertEquals(1, asked.size());
        assertTrue(asked.getFirst().accept().contains("application/json"), asked.getFirst().accept());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "2147483647"})
    void quantitiesAtTheBounds(String quantity) throws Exception {
        long id = upstream.newId();
        upstream.script(id, quantity(id, quantity));
        assertEquals(Integer.parseInt(quantity), value(client.quantity(id)));
    }

    @Test
    void aNegativeIdIsAskedForAsItIs() throws Exception {
        long id = -upstream.newId();
        upstream.script(id, quantity(id, "4"));
        assertEquals(4, value(client.quantity(id)));
    }

    @Test
    void anAnswerWithinTheTimeoutIsServed() throws Exception {
        long id = upstream.newId();
        upstream.script(id, after(Duration.ofMillis(300), quantity(id, "9")));
        assertEquals(9, value(client.quantity(id)));
    }

    @Test
    void noStockRecordIsNotFound() throws Exception {
        long id = upstream.newId();
        Throwable failure = failure(client.quantity(id));
        assertInstanceOf(StockNotFoundException.class, failure);
        assertEquals("no stock record for item " + id, failure.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 409, 429, 500, 503})
    void anyOtherStatusFailsAndIsAskedOnce(int status) throws Exception {
        long id = upstream.newId();
        upstream.script(id, json(status, "{\"detail\":\"upstream trouble\"}"));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
        assertEquals(1, upstream.asked(id).size(), "no retries");
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        long id = upstream.newId();
        long elsewhere = upstream.newId();
        upstream.script(elsewhere, quantity(elsewhere, "8"));
        upstream.script(id, redirect("/stock/" + elsewhere));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
        assertEquals(List.of(), upstream.asked(elsewhere));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "", "{\"quantity\": 5", "{\"quantity\": 5} 6", "[{\"quantity\": 5}]", "[]",
            "\"5\"", "5", "null", "true"})
    void anAnswerThatIsNotAJsonObjectFails(String answer) throws Exception {
        long id = upstream.newId();
        upstream.script(id, json(200, answer));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void htmlFails() throws Exception {
        long id = upstream.newId();
        upstream.script(id, body("text/html", 200, "<html><body>quantity: 5</body></html>"));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"5\"", "1.5", "5.0", "1e2", "-1", "2147483648", "99999999999999999999", "true", "null",
            "{\"value\": 5}", "[5]"})
    void anInvalidQuantityFails(String quantity) throws Exception {
        long id = upstream.newId();
        upstream.script(id, quantity(id, quantity));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void aMissingQuantityFails() throws Exception {
        long id = upstream.newId();
        upstream.script(id, json(200, "{\"itemId\":" + id + ",\"stock\":5}"));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void aConnectionClosedWithoutAnAnswerFails() throws Exception {
        long id = upstream.newId();
        upstream.script(id, DROP);
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void anUpstreamThatDoesNotAnswerTimesOutAfterASecond() throws Exception {
        long id = upstream.newId();
        upstream.script(id, HANG);
        long started = System.nanoTime();
        Throwable failure = failure(client.quantity(id));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertInstanceOf(UpstreamTimeoutException.class, failure);
        assertTrue(took.compareTo(Duration.ofMillis(900)) >= 0 && took.compareTo(Duration.ofSeconds(3)) < 0,
                "timed out after " + took);
    }

    @Test
    void aRefusedConnectionFails() throws Exception {
        int port;
        try (ServerSocket closedAgain = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closedAgain.getLocalPort();
        }
        try (StockClient refused = new StockClient(URI.create("http://127.0.0.1:" + port), Json.newMapper())) {
            assertInstanceOf(UpstreamFailedException.class, failure(refused.quantity(5)));
        }
    }

    @Test
    void aBurstIsServedOnThePool() throws Exception {
        long id = upstream.newId();
        upstream.script(id, after(Duration.ofMillis(50), quantity(id, "77")));
        List<CompletableFuture<Integer>> burst = IntStream.range(0, 200)
                .mapToObj(i -> client.quantity(id).toCompletableFuture()).toList();
        for (CompletableFuture<Integer> quantity : burst) {
            assertEquals(77, quantity.get(5, TimeUnit.SECONDS));
        }
    }
}
