package bench.catalog.stock;

import bench.catalog.http.Router;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.List;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /items/{id}/stock through the router and the error map, on a JDK server, against a fake upstream. No database. */
class StockHandlersTest {

    private static FakeUpstream upstream;
    private static StockClient stock;
    private static HttpServer server;
    private static HttpClient client;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        upstream = new FakeUpstream();
        stock = new StockClient(upstream.url());
        var router = new Router(false);
        new StockHandlers(stock).register(router);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", router);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.stop(0);
        stock.close();
        upstream.close();
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(base + path)).method(method, HttpRequest.BodyPublishers.noBody());
        return client.send(request.build(), BodyHandlers.ofString());
    }

    private static void assertProblem(int status, String title, HttpResponse<String> response) {
        assertEquals(status, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(response.body().contains("\"title\":\"" + title + "\""), response.body());
        assertTrue(response.body().contains("\"status\":" + status), response.body());
    }

    @Test
    void theQuantityIsAnsweredWithTheIdAskedFor() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.json(200, "{\"itemId\":7,\"quantity\":345,\"warehouse\":\"test\"}"));
        var response = send("GET", "/items/" + id + "/stock");
        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"itemId\":" + id + ",\"quantity\":345}", response.body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"+%d", "%%2B%d", "00%d"})
    void theUpstreamIsAskedForTheCanonicalId(String written) throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.quantity(id, "5"));
        assertEquals(200, send("GET", "/items/" + written.formatted(id) + "/stock").statusCode());
        assertEquals(List.of("/stock/" + id), upstream.asked(id).stream().map(FakeUpstream.Asked::path).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1.5", "99999999999999999999", "%20", "+"})
    void anIdThatIsNotAnIntegerIs400AndTheUpstreamIsNotAsked(String id) throws Exception {
        int before = upstream.askedInAll();
        assertProblem(400, "Bad Request", send("GET", "/items/" + id + "/stock"));
        assertEquals(before, upstream.askedInAll());
    }

    @Test
    void noStockRecordIs404() throws Exception {
        long id = upstream.newId();
        var response = send("GET", "/items/" + id + "/stock");
        assertProblem(404, "Not Found", response);
        assertTrue(response.body().contains("no stock record for item " + id), response.body());
    }

    @Test
    void anUnusableAnswerIs502() throws Exception {
        long id = upstream.newId();
        upstream.script(id, FakeUpstream.json(500, "{}"));
        assertProblem(502, "Bad Gateway", send("GET", "/items/" + id + "/stock"));
    }

    @Test
    void noAnswerInTimeIs504() throws Exception {
        long id = upstream.newId();
        upstream.script(id, upstream.hang());
        assertProblem(504, "Gateway Timeout", send("GET", "/items/" + id + "/stock"));
    }

    @Test
    void otherMethodsAre405WithAllow() throws Exception {
        long id = upstream.newId();
        var response = send("POST", "/items/" + id + "/stock");
        assertProblem(405, "Method Not Allowed", response);
        assertEquals("GET", response.headers().firstValue("Allow").orElseThrow());
        assertEquals(List.of(), upstream.asked(id));
    }
}
