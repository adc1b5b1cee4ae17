package bench.catalog.http;

import bench.catalog.json.JsonWriter;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP layer on a real JDK server, with handlers that echo what they were given. */
class RouterTest {

    private static HttpServer server;
    private static HttpClient client;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        var router = new Router(false)
                .get("/things", exchange -> exchange.sendJson(200, echo(exchange.pageRequest().number(),
                        exchange.pageRequest().size(), exchange.queryLong("filter").orElse(-1))))
                .post("/things", exchange -> {
                    var body = (Map<?, ?>) exchange.readJson(Set.of("a"));
                    exchange.sendCreated("/things/1", new JsonWriter().beginObject()
                            .field("keys", body.size()).endObject());
                })
                .get("/things/{id}", exchange -> exchange.sendJson(200, echo(exchange.pathId())))
                .delete("/things/{id}", exchange -> {
                    exchange.pathId();
                    exchange.sendNoContent();
                })
                .get("/things/{id}/parts", exchange -> exchange.sendJson(200, echo(exchange.pathId())))
                .get("/elsewhere", exchange -> exchange.sendRedirect("https://example.test/x.png"))
                .get("/broken", exchange -> {
                    throw new IllegalStateException("secret internals");
                });
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", router);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
        client.close();
    }

    private static JsonWriter echo(long... values) {
        var w = new JsonWriter().beginArray();
        Arrays.stream(values).forEach(w::value);
        return w.endArray();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path));
    }

    private static void assertProblem(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(response.body().startsWith("{\"type\":\"about:blank\",\"title\":"), response.body());
        assertTrue(response.body().contains("\"status\":" + status + ","), response.body());
    }

    @ParameterizedTest
    @CsvSource({"/things/", "/thing", "/things/1/", "/things/1/parts/", "/", "/things/1/other", "/things//parts"})
    void unknownPathsAre404(String path) throws Exception {
        assertProblem(send(request(path)), 404);
    }

    @ParameterizedTest
    @CsvSource({
            "PATCH, /things/abc, 'GET, DELETE'",
            "PUT, /things, 'GET, POST'",
            "POST, /things/1/parts, GET",
            "DELETE, /elsewhere, GET"})
    void knownPathsWithAnotherMethodAre405WithAllow(String method, String path, String allow) throws Exception {
        var response = send(request(path).method(method, BodyPublishers.noBody()));
        assertProblem(response, 405);
        assertEquals(allow, response.headers().firstValue("Allow").orElseThrow());
    }

    @ParameterizedTest
    @CsvSource({
            "/things/42, '[42]'",
            "/things/-5, '[-5]'",
            "/things/+5, '[5]'",
            "/things/%2B5, '[5]'",
            "/things/007, '[7]'",
            "/things/%31, '[1]'",
            "/things/9223372036854775807/parts, '[9223372036854775807]'",
            "/things, '[0,20,-1]'",
            "/things?page=3&size=100&filter=-7&other, '[3,100,-7]'",
            "/things?page=%2B5&size=010&filter=%2B0042, '[5,10,42]'"})
    void passesParsedParameters(String path, String json) throws Exception {
        var response = send(request(path));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(json, response.body());
    }

    @ParameterizedTest
    @CsvSource({
            "/things/abc", "/things/1.5", "/things/99999999999999999999", "/things/%D9%A1",
            "/things?page=", "/things?page=-1", "/things?page=x", "/things?size=0", "/things?size=101",
            "/things?size=", "/things?filter=", "/things?filter=1.0", "/things?filter=99999999999999999999",
            "/things/%EF%BC%95", "/things/%205", "/things/5%20", "/things/1_0", "/things/%2B", "/things/%2B-5",
            "/things?page=+5", "/things?size=%EF%BC%95", "/things?filter=%D9%A1%D9%A2", "/things?filter=1_0"})
    void malformedIdsAndParametersAre400(String path) throws Exception {
        assertProblem(send(request(path)), 400);
    }

    @Test
    void redirectsAndNoContentHaveNoBody() throws Exception {
        var redirect = send(request("/elsewhere"));
        assertEquals(302, redirect.statusCode());
        assertEquals("https://example.test/x.png", redirect.headers().firstValue("Location").orElseThrow());
        assertEquals("", redirect.body());
        var deleted = send(request("/things/1").DELETE());
        assertEquals(204, deleted.statusCode());
        assertEquals("", deleted.body());
    }

    @Test
    void unexpectedFailuresAre500WithoutTheirText() throws Exception {
        var response = send(request("/broken"));
        assertProblem(response, 500);
        assertTrue(!response.body().contains("secret"), response.body());
    }

    @Test
    void bodiesNeedAJsonContentType() throws Exception {
        var json = "{\"a\":1}";
        assertProblem(send(request("/things").POST(BodyPublishers.ofString(json))), 415);
        assertProblem(send(request("/things").header("Content-Type", "text/plain").POST(BodyPublishers.ofString(json))), 415);
        var created = send(request("/things").header("Content-Type", "Application/JSON; charset=utf-8")
                .POST(BodyPublishers.ofString(json)));
        assertEquals(201, created.statusCode(), created.body());
        assertEquals("/things/1", created.headers().firstValue("Location").orElseThrow());
        assertEquals("{\"keys\":1}", created.body());
    }

    @Test
    void unparseableBodiesAre400() throws Exception {
        for (String body : new String[] {"", "{", "{\"a\":1,}", "nope"}) {
            assertProblem(send(request("/things").header("Content-Type", "application/json")
                    .POST(BodyPublishers.ofString(body))), 400);
        }
    }

    @Test
    void bodiesAreLimitedTo1MiBAlsoWhenChunked() throws Exception {
        for (boolean chunked : new boolean[] {false, true}) {
            assertEquals(201, post(paddedObject(Exchange.BODY_LIMIT), chunked).statusCode());
            assertProblem(post(paddedObject(Exchange.BODY_LIMIT + 1), chunked), 413);
            assertProblem(post(paddedObject(3 * Exchange.BODY_LIMIT), chunked), 413);
        }
    }

    @Test
    void aBodyThatDoesNotFitTheBudgetIs503() throws Exception {
        // A budget of one largest body, held by a request that announces one and sends none of it.
        var budgeted = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        budgeted.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        budgeted.createContext("/", new Router(false, Exchange.charge(Exchange.BODY_LIMIT)).post("/things", exchange -> {
            exchange.readJson(Set.of());
            exchange.sendNoContent();
        }));
        budgeted.start();
        var things = URI.create("http://127.0.0.1:" + budgeted.getAddress().getPort() + "/things");
        try {
            try (var holder = new Socket("127.0.0.1", budgeted.getAddress().getPort())) {
                holder.getOutputStream().write(("POST /things HTTP/1.1\r\nHost: test\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + Exchange.BODY_LIMIT + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                assertProblem(postUntil(things, 503), 503);
            }
            // Its bytes come back when its connection closes.
            assertEquals(204, postUntil(things, 204).statusCode());
        } finally {
            budgeted.stop(0);
        }
    }

    @Test
    void aBodysChargeIsHeldUntilItsAnswerIsSent() throws Exception {
        // A budget of one small body: a second request is refused while the first is served.
        var serving = new CountDownLatch(1);
        var answer = new CountDownLatch(1);
        var budgeted = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        budgeted.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        budgeted.createContext("/", new Router(false, Exchange.charge(16)).post("/things", exchange -> {
            exchange.readJson(Set.of());
            serving.countDown();
            answer.await();
            exchange.sendNoContent();
        }));
        budgeted.start();
        var things = URI.create("http://127.0.0.1:" + budgeted.getAddress().getPort() + "/things");
        try {
            var first = client.sendAsync(HttpRequest.newBuilder(things).header("Content-Type", "application/json")
                    .POST(BodyPublishers.ofString("{}")).build(), BodyHandlers.ofString());
            serving.await();
            var refused = send(HttpRequest.newBuilder(things).header("Content-Type", "application/json")
                    .POST(BodyPublishers.ofString("{}")));
            assertProblem(refused, 503);
            assertEquals("close", refused.headers().firstValue("Connection").orElse(""));
            answer.countDown();
            assertEquals(204, first.get().statusCode());
            assertEquals(204, postUntil(things, 204).statusCode());
        } finally {
            answer.countDown();
            budgeted.stop(0);
        }
    }

    /** An empty object posted until the answer has {@code status}, for up to 5 s: the holder's request is read in its own time. */
    private static HttpResponse<String> postUntil(URI target, int status) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        HttpResponse<String> response;
        do {
            response = send(HttpRequest.newBuilder(target).header("Content-Type", "application/json")
                    .POST(BodyPublishers.ofString("{}")));
        } while (response.statusCode() != status && System.nanoTime() < deadline);
        return response;
    }

    private static byte[] paddedObject(int size) {
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) ' ');
        body[0] = '{';
        body[size - 1] = '}';
        return body;
    }

    private static HttpResponse<String> post(byte[] body, boolean chunked) throws Exception {
        var publisher = chunked
                ? BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
                : BodyPublishers.ofByteArray(body);
        return send(request("/things").header("Content-Type", "application/json").POST(publisher));
    }
}
