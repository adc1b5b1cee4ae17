package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.http.BodyBudget;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The verticle deployed in-process on a free port, against the seeded database named by
 * DATABASE_URL. The test thread waits on Vert.x's futures with {@code await()}, which Vert.x 5
 * allows on any thread that is not its own. Any task that holds the event loop for more than
 * {@link #MAX_EVENT_LOOP_TASK_MS} fails the test that caused it: Vert.x's blocked-thread checker
 * reports it, and {@link #nothingBlockedTheEventLoop} reads its reports.
 */
@EnabledIfEnvironmentVariable(named = "DATABASE_URL", matches = ".+")
class CatalogVerticleTest {

    /** Long enough for a first request's class loading on a busy machine, far below any blocking I/O wait. */
    private static final long MAX_EVENT_LOOP_TASK_MS = 1000;

    /** The logger that Vert.x's blocked-thread checker reports to, under a name Vert.x keeps stable. */
    private static final Logger BLOCKED_THREAD_CHECKER = Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker");
    private static final List<LogRecord> blockedReports = new CopyOnWriteArrayList<>();
    private static final Handler blockedReportCollector = new Handler() {
        @Override
        public void publish(LogRecord record) {
            blockedReports.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    /** The largest body (spec/API.md, "Request bodies"). */
    private static final int BODY_LIMIT = 1_048_576;

    private static Vertx vertx;
    private static FakeStock upstream;
    private static WebClient client;
    private static int port;

    @BeforeAll
    static void deploy() throws IOException {
        BLOCKED_THREAD_CHECKER.addHandler(blockedReportCollector);
        vertx = Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(1)
                .setMaxEventLoopExecuteTime(MAX_EVENT_LOOP_TASK_MS)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setBlockedThreadCheckInterval(100));
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        upstream = FakeStock.start(vertx);
        Config config = Config.fromEnvironment(Map.of(
                "DATABASE_URL", System.getenv("DATABASE_URL"),
                "PORT", String.valueOf(port),
                "DB_POOL_SIZE", "2",
                "AVATAR_BASE_URL", "http://pictures.test",
                "AVATAR_COUNT", "3",
                "STOCK_URL", upstream.url().toString()));
        client = WebClient.create(vertx, new WebClientOptions()
                .setDefaultHost("127.0.0.1")
                .setDefaultPort(port)
                .setFollowRedirects(false));
        vertx.deployVerticle(new CatalogVerticle(config, new BodyBudget(BodyBudget.BYTES))).await();
    }

    @AfterAll
    static void close() {
        vertx.close().await();
        BLOCKED_THREAD_CHECKER.removeHandler(blockedReportCollector);
    }

    @AfterEach
    void nothingBlockedTheEventLoop() {
        assertEquals(List.of(), blockedReports.stream().map(LogRecord::getMessage).toList());
    }

    @Test
    void theBlockedThreadCheckerWouldReportABlockingHandler() throws InterruptedException {
        vertx.runOnContext(blocking -> {
            try {
                Thread.sleep(MAX_EVENT_LOOP_TASK_MS + 500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (blockedReports.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(!blockedReports.isEmpty(), "a sleep on the event loop was not reported");
        Thread.sleep(MAX_EVENT_LOOP_TASK_MS);
        blockedReports.clear();
    }

    @Test
    void readsAnItemWithItsCategory() {
        HttpResponse<Buffer> response = send(HttpMethod.GET, "/items/%2B0007", null, null);

        assertEquals(200, response.statusCode());
        JsonObject item = response.bodyAsJsonObject();
        assertEquals("SKU-000007", item.getString("sku"));
        assertEquals(new JsonObject().put("id", 7).put("code", "CAT-0007").put("name", "Category 7"),
                item.getJsonObject("category"));
        assertEquals("2026-01-01T00:00:07Z", item.getString("updatedAt"));
    }

    @Test
    void aPagePastEveryRowKeepsTheTotals() {
        HttpResponse<Buffer> response = send(HttpMethod.GET, "/categories?page=9223372036854775807&size=100", null, null);

        assertEquals(200, response.statusCode());
        JsonObject page = response.bodyAsJsonObject();
        assertEquals(new JsonArray(), page.getJsonArray("content"));
        assertEquals(2000L, page.getJsonObject("page").getLong("totalElements"));
        assertEquals(20L, page.getJsonObject("page").getLong("totalPages"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/items/%D9%A1%D9%A2", "/items/1_0", "/items?page=-1", "/items?size=101", "/items?categoryId=",
        "/items?page=+5", "/categories/99999999999999999999"})
    void malformedIntegersAre400(String target) {
        assertProblem(send(HttpMethod.GET, target, null, null), 400, "Bad Request");
    }

    @Test
    void anUnknownMethodOnAKnownPathIs405WithAllow() {
        HttpResponse<Buffer> response = send(HttpMethod.PATCH, "/items/abc", null, null);

        assertProblem(response, 405, "Method Not Allowed");
        assertEquals("GET, PUT, DELETE", response.getHeader("Allow"));
    }

    @Test
    void theMediaTypeIsCheckedBeforeTheSize() {
        Buffer tooLarge = Buffer.buffer(new byte[1_048_577]);

        assertProblem(send(HttpMethod.POST, "/categories", "text/plain", tooLarge), 415, "Unsupported Media Type");
        assertProblem(send(HttpMethod.POST, "/categories", "application/json", tooLarge), 413, "Content Too Large");
    }

    @Test
    void aBodyWithACommentIsNotJson() {
        Buffer body = Buffer.buffer("{\"code\": \"X\", /* no */ \"name\": \"y\"}");

        assertProblem(send(HttpMethod.POST, "/categories", "application/json", body), 400, "Bad Request");
    }

    @Test
    void everyInvalidFieldIsListed() {
        Buffer body = Buffer.buffer("{\"sku\": \" \", \"price\": 1.00000000000000001, \"stock\": 1.5, \"categoryId\": \"3\"}");
        HttpResponse<Buffer> response = send(HttpMethod.PUT, "/items/999999999", "application/json", body);

        assertProblem(response, 422, "Unprocessable Content");
        Set<String> fields = response.bodyAsJsonObject().getJsonArray("errors").stream()
                .map(error -> ((JsonObject) error).getString("field"))
                .collect(Collectors.toSet());
        assertEquals(Set.of("sku", "name", "price", "stock", "categoryId"), fields);
    }

    @Test
    void aPriceIsStoredByItsExactValue() {
        String sku = "VERTX-" + UUID.randomUUID();
        Buffer body = Buffer.buffer("{\"sku\": \"" + sku + "\", \"name\": \"n\", \"price\": 125E-2, \"stock\": 3,"
                + " \"categoryId\": 5}");
        HttpResponse<Buffer> response = send(HttpMethod.POST, "/items", "application/json; charset=utf-8", body);

        assertEquals(201, response.statusCode());
        JsonObject item = response.bodyAsJsonObject();
        assertEquals(0, new BigDecimal("1.25").compareTo(new BigDecimal(item.getValue("price").toString())));
        assertNull(item.getString("description"));
        assertEquals("/items/" + item.getLong("id"), response.getHeader("Location"));
    }

    @Test
    void anUnknownCategoryIs422OnCategoryId() {
        Buffer body = Buffer.buffer("{\"sku\": \"VERTX-" + UUID.randomUUID() + "\", \"name\": \"n\", \"price\": 1,"
                + " \"stock\": 3, \"categoryId\": -5}");
        HttpResponse<Buffer> response = send(HttpMethod.POST, "/items", "application/json", body);

        assertProblem(response, 422, "Unprocessable Content");
        assertEquals("categoryId", response.bodyAsJsonObject().getJsonArray("errors").getJsonObject(0).getString("field"));
    }

    @Test
    void aCategoryWithItemsIsNotDeleted() {
        assertProblem(send(HttpMethod.DELETE, "/categories/1", null, null), 409, "Conflict");
        assertEquals(200, send(HttpMethod.GET, "/categories/1", null, null).statusCode());
    }

    @Test
    void theAvatarIsA302ToOneOfThePictures() {
        HttpResponse<Buffer> response = send(HttpMethod.GET, "/avatar", null, null);

        assertEquals(302, response.statusCode());
        assertTrue(response.getHeader("Location").matches("http://pictures\\.test/Renard-[1-3]\\.png"),
                response.getHeader("Location"));
    }

    @Test
    void healthRunsAQuery() {
        HttpResponse<Buffer> response = send(HttpMethod.GET, "/health", null, null);

        assertEquals(200, response.statusCode());
        assertEquals(new JsonObject().put("status", "UP"), response.bodyAsJsonObject());
    }

    @Test
    void theStockIsTheUpstreamsQuantityForTheIdAskedFor() {
        long id = upstream.newId();
        upstream.script(id, FakeStock.json(200, "{\"itemId\":7,\"quantity\":345,\"warehouse\":\"test\"}"));
        HttpResponse<Buffer> response = send(HttpMethod.GET, "/items/%2B00" + id + "/stock", null, null);

        assertEquals(200, response.statusCode());
        assertEquals("application/json", response.getHeader("Content-Type"));
        assertEquals("{\"itemId\":" + id + ",\"quantity\":345}", response.bodyAsString());
        assertEquals(List.of("/stock/" + id), upstream.asked(id).stream().map(FakeStock.Asked::path).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1.5", "99999999999999999999", "%20", "+"})
    void aStockIdThatIsNotAnIntegerIs400AndTheUpstreamIsNotAsked(String id) {
        int before = upstream.askedInAll();
        assertProblem(send(HttpMethod.GET, "/items/" + id + "/stock", null, null), 400, "Bad Request");
        assertEquals(before, upstream.askedInAll());
    }

    @Test
    void theUpstreamsAnswersBecomeProblems() {
        long missing = upstream.newId();
        assertProblem(send(HttpMethod.GET, "/items/" + missing + "/stock", null, null), 404, "Not Found");

        long failing = upstream.newId();
        upstream.script(failing, FakeStock.json(500, "{}"));
        assertProblem(send(HttpMethod.GET, "/items/" + failing + "/stock", null, null), 502, "Bad Gateway");

        long hanging = upstream.newId();
        upstream.script(hanging, FakeStock.hang());
        assertProblem(send(HttpMethod.GET, "/items/" + hanging + "/stock", null, null), 504, "Gateway Timeout");
    }

    @Test
    void otherMethodsOnTheStockAre405WithAllow() {
        long id = upstream.newId();
        HttpResponse<Buffer> response = send(HttpMethod.POST, "/items/" + id + "/stock", "application/json",
                Buffer.buffer("{}"));

        assertProblem(response, 405, "Method Not Allowed");
        assertEquals("GET", response.getHeader("Allow"));
        assertEquals(List.of(), upstream.asked(id));
    }

    @Test
    void aBodyThatDoesNotFitTheBudgetIs503AndClosesItsConnection() {
        // Requests that announce the largest body and send none of it hold the whole budget.
        NetClient raw = vertx.createNetClient();
        List<NetSocket> holders = new ArrayList<>();
        try {
            for (long held = 0; held < BodyBudget.BYTES; held += BODY_LIMIT) {
                NetSocket holder = raw.connect(port, "127.0.0.1").await();
                holder.write("POST /items HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + BODY_LIMIT + "\r\n\r\n").await();
                holders.add(holder);
            }
            HttpResponse<Buffer> refused = postUntil(503);
            assertProblem(refused, 503, "Service Unavailable");
            assertEquals("close", refused.getHeader("Connection"));
        } finally {
            holders.forEach(holder -> holder.close().await());
            raw.close().await();
        }
        // Their bytes come back when their connections close.
        assertProblem(postUntil(422), 422, "Unprocessable Content");
    }

    @Test
    void aConnectionWhoseRequestHeadDoesNotArriveIsClosedAfter10Seconds() throws TimeoutException {
        NetClient raw = vertx.createNetClient();
        try {
            NetSocket slow = raw.connect(port, "127.0.0.1").await();
            Promise<Void> closed = Promise.promise();
            slow.closeHandler(closed::complete);
            long start = System.nanoTime();
            slow.write("GET /health HTTP/1.1\r\nHost: test\r\n").await();

            closed.future().await(15, TimeUnit.SECONDS);
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waited > 9_000 && waited < 12_000, "closed after " + waited + " ms");
        } finally {
            raw.close().await();
        }
    }

    @Test
    void aClientThatResetsItsConnectionMidBodyIsOneInfoLineWithoutAStackTrace() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler collector = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        root.addHandler(collector);
        try {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                // Closed with a linger of 0, the socket sends a reset: the server's next read fails.
                socket.setSoLinger(true, 0);
                socket.getOutputStream().write(("POST /items HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 1000\r\n\r\n{\"sku\": ").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                // Time for the event loop to take the head and start reading the body.
                Thread.sleep(500);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (records.stream().noneMatch(CatalogVerticleTest::isNotRead) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            List<LogRecord> notRead = records.stream().filter(CatalogVerticleTest::isNotRead).toList();
            assertEquals(1, notRead.size(), () -> records.stream().map(LogRecord::getMessage).toList().toString());
            assertEquals(Level.INFO, notRead.getFirst().getLevel());
            assertEquals(List.of(), records.stream()
                    .filter(record -> record.getLevel().intValue() >= Level.WARNING.intValue() || record.getThrown() != null)
                    .map(record -> record.getLevel() + " " + record.getMessage())
                    .toList());
        } finally {
            root.removeHandler(collector);
        }
    }

    /** Problems' line for a request whose body the client did not send whole. */
    private static boolean isNotRead(LogRecord record) {
        return record.getMessage() != null && record.getMessage().contains("not read");
    }

    /** An invalid item posted until the answer has {@code status}, for up to 5 s: the server settles its budget in its own time. */
    private static HttpResponse<Buffer> postUntil(int status) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        HttpResponse<Buffer> response;
        do {
            response = send(HttpMethod.POST, "/items", "application/json", Buffer.buffer("{}"));
        } while (response.statusCode() != status && System.nanoTime() < deadline);
        return response;
    }

    private static HttpResponse<Buffer> send(HttpMethod method, String target, String contentType, Buffer body) {
        var request = client.request(method, target);
        if (contentType != null) {
            request.putHeader("Content-Type", contentType);
        }
        return (body == null ? request.send() : request.sendBuffer(body)).await();
    }

    private static void assertProblem(HttpResponse<Buffer> response, int status, String title) {
        assertEquals(status, response.statusCode(), response::bodyAsString);
        assertEquals("application/problem+json", response.getHeader("Content-Type"));
        JsonObject problem = response.bodyAsJsonObject();
        assertEquals("about:blank", problem.getString("type"));
        assertEquals(title, problem.getString("title"));
        assertEquals(status, problem.getInteger("status"));
        assertTrue(!problem.getString("detail").isBlank());
    }
}
