package bench.catalog.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.FakeStock;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client against a fake upstream: every answer of the upstream to a quantity or a failed future. No database. */
class StockClientTest {

    private static Vertx vertx;
    private static FakeStock upstream;
    private static StockClient client;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        upstream = FakeStock.start(vertx);
        client = StockClient.create(vertx, upstream.url());
    }

    @AfterAll
    static void stop() {
        client.close();
        upstream.close();
        vertx.close().await();
    }

    /** What the future failed with. */
    private static Throwable failure(Future<Integer> quantity) throws Exception {
        try {
            Integer value = quantity.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got the quantity " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** The test thread waits on Vert.x's future, which Vert.x 5 allows on any thread not its own. */
    private static int value(Future<Integer> quantity) throws Exception {
        return quantity.await(5, TimeUnit.SECONDS);
    }

    @Test
    void theQuantityOfTheAnswerIsReturned() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.quantity(id, "345"));
        assertEquals(345, value(client.quantity(id)));
        List<FakeStock.Asked> asked = upstream.asked(id);
        assertEquals(1, asked.size());
        assertTrue(asked.getFirst().accept().contains("application/json"), asked.getFirst().accept());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "2147483647"})
    void quantitiesAtTheBounds(String quantity) throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.quantity(id, quantity));
        assertEquals(Integer.parseInt(quantity), value(client.quantity(id)));
    }

    @Test
    void aNegativeIdIsAskedForAsItIs() throws Exception {
        long id = -upstream.newId();
        upstream.script(id, FakeStock.quantity(id, "4"));
        assertEquals(4, value(client.quantity(id)));
    }

    @Test
    void anAnswerWithinTheTimeoutIsServed() throws Exception {
        long id = upstream.newId();
        upstream.script(id, upstream.after(300, FakeStock.quantity(id, "9")));
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
        upstream.script(id, FakeStock.json(status, "{\"detail\":\"upstream trouble\"}"));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
        assertEquals(1, upstream.asked(id).size(), "no retries");
    }

    @Test
    void aRedirectIsNotFollowed() throws Exception {
        long id = upstream.newId();
        long elsewhere = upstream.newId();
        upstream.script(elsewhere, FakeStock.quantity(elsewhere, "8"));
        upstream.script(id, FakeStock.redirect("/stock/" + elsewhere));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
        assertEquals(List.of(), upstream.asked(elsewhere));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "", "{\"quantity\": 5", "{\"quantity\": 5} 6", "[{\"quantity\": 5}]", "[]",
            "\"5\"", "5", "null", "true"})
    void anAnswerThatIsNotAJsonObjectFails(String answer) throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.json(200, answer));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void htmlFails() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.body("text/html", 200, "<html><body>quantity: 5</body></html>"));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"5\"", "1.5", "5.0", "1e2", "-1", "2147483648", "99999999999999999999", "true", "null",
            "{\"value\": 5}", "[5]"})
    void anInvalidQuantityFails(String quantity) throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.quantity(id, quantity));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void aMissingQuantityFails() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.json(200, "{\"itemId\":" + id + ",\"stock\":5}"));
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void aConnectionClosedWithoutAnAnswerFails() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.drop());
        assertInstanceOf(UpstreamFailedException.class, failure(client.quantity(id)));
    }

    @Test
    void anUpstreamThatDoesNotAnswerTimesOutAfterASecond() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeStock.hang());
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
        // A Vert.x of its own: in this one the shared client "stock" already talks to the fake.
        Vertx other = Vertx.vertx();
        try {
            StockClient refused = StockClient.create(other, URI.create("http://127.0.0.1:" + port));
            assertInstanceOf(UpstreamFailedException.class, failure(refused.quantity(5)));
        } finally {
            other.close().await();
        }
    }

    @Test
    void aBurstIsServedOnThePool() throws Exception {
        long id = upstream.newId();
        upstream.script(id, upstream.after(50, FakeStock.quantity(id, "77")));
        List<Future<Integer>> burst = IntStream.range(0, 200).mapToObj(i -> client.quantity(id)).toList();
        for (Future<Integer> quantity : burst) {
            assertEquals(77, quantity.await(5, TimeUnit.SECONDS));
        }
    }
}
