package bench.catalog;

import bench.catalog.db.Database;
import bench.catalog.json.JsonParser;
import bench.catalog.stock.StockClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole server in-process on a free port, against the seeded database named by DATABASE_URL.
 * Rows it creates carry a random suffix and are deleted again, so it also runs on a used database.
 */
@EnabledIfEnvironmentVariable(named = "DATABASE_URL", matches = ".+")
class CatalogServerTest {

    private static Database database;
    private static StockClient stock;
    private static CatalogServer server;
    private static HttpClient client;
    private static String base;
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void start() throws Exception {
        var env = new HashMap<>(System.getenv());
        env.put("HOST", "127.0.0.1");
        env.put("PORT", "0");
        env.put("DB_POOL_SIZE", "4");
        env.put("AVATAR_BASE_URL", "https://avatars.test/");
        env.put("AVATAR_COUNT", "3");
        var config = Config.fromEnvironment(env);
        database = Database.open(config);
        stock = new StockClient(config.stockUrl());
        server = CatalogServer.start(config, database, stock);
        base = "http://127.0.0.1:" + server.port();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.stop(0);
        stock.close();
        database.close();
    }

    private record Reply(int status, Object json, HttpResponse<String> response) {
        Map<?, ?> object() {
            return (Map<?, ?>) json;
        }

        List<?> content() {
            return (List<?>) object().get("content");
        }

        Map<?, ?> page() {
            return (Map<?, ?>) object().get("page");
        }
    }

    private static Reply call(String method, String path, String body) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
        if (body == null) {
            request.method(method, BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = client.send(request.build(), BodyHandlers.ofString());
        byte[] bytes = response.body().getBytes(UTF_8);
        Object json = bytes.length == 0 ? null : JsonParser.parse(bytes, bytes.length);
        return new Reply(response.statusCode(), json, response);
    }

    private static Reply get(String path) throws Exception {
        return call("GET", path, null);
    }

    private static long number(Object value) {
        return ((BigDecimal) value).longValueExact();
    }

    private static List<Long> ids(Reply reply) {
        return reply.content().stream().map(item -> number(((Map<?, ?>) item).get("id"))).toList();
    }

    @Test
    void servesAnItemWithItsCategory() throws Exception {
        var reply = get("/items/12345");
        assertEquals(200, reply.status());
        assertEquals("application/json", reply.response().headers().firstValue("Content-Type").orElseThrow());
        var item = reply.object();
        assertEquals(12345, number(item.get("id")));
        assertEquals("SKU-012345", item.get("sku"));
        assertEquals("Item 12345", item.get("name"));
        assertEquals(0, new BigDecimal("600.55").compareTo((BigDecimal) item.get("price")));
        assertEquals(345, number(item.get("stock")));
        assertEquals(345, number(item.get("categoryId")));
        assertEquals(Map.of("id", BigDecimal.valueOf(345), "code", "CAT-0345", "name", "Category 345"), item.get("category"));
        assertTrue(((String) item.get("description")).startsWith("Description of item 12345. "));
        assertEquals(Instant.parse("2026-01-01T03:25:45Z"), Instant.parse((String) item.get("updatedAt")));
        assertEquals(404, get("/items/0").status());
    }

    @Test
    void pagesItemsInIdOrder() throws Exception {
        var reply = get("/items?page=2&size=5");
        assertEquals(200, reply.status());
        assertEquals(List.of(11L, 12L, 13L, 14L, 15L), ids(reply));
        assertEquals(5, number(reply.page().get("size")));
        assertEquals(2, number(reply.page().get("number")));
        long total = number(reply.page().get("totalElements"));
        assertTrue(total >= 100_000, "seeded items: " + total);
        assertEquals((total + 4) / 5, number(reply.page().get("totalPages")));

        var pastTheEnd = get("/items?page=9223372036854775807&size=100");
        assertEquals(200, pastTheEnd.status());
        assertEquals(List.of(), pastTheEnd.content());
    }

    @Test
    void filtersItemsByCategoryBothWays() throws Exception {
        List<Long> expected = List.of(345L, 2345L, 4345L);
        var byQuery = get("/items?categoryId=345&size=3");
        var byPath = get("/categories/345/items?size=3");
        assertEquals(expected, ids(byQuery));
        assertEquals(expected, ids(byPath));
        assertEquals(50, number(byPath.page().get("totalElements")));
        assertEquals(17, number(byPath.page().get("totalPages")));

        var unknown = get("/items?categoryId=999999999");
        assertEquals(200, unknown.status());
        assertEquals(List.of(), unknown.content());
        assertEquals(0, number(unknown.page().get("totalPages")));
        assertEquals(404, get("/categories/999999999/items").status());
    }

    @Test
    void pagesCategories() throws Exception {
        var reply = get("/categories?page=1&size=2");
        assertEquals(List.of(3L, 4L), ids(reply));
        var category = (Map<?, ?>) reply.content().get(0);
        assertEquals("CAT-0003", category.get("code"));
        assertEquals("Category 3", category.get("name"));
        assertEquals(Instant.parse("2026-01-01T00:00:03Z"), Instant.parse((String) category.get("updatedAt")));
    }

    @Test
    void createsUpdatesAndDeletesAnItem() throws Exception {
        String sku = "T-" + RUN;
        var created = call("POST", "/items", """
                {"sku":"%s","name":"Test","price":12.5,"stock":7,"categoryId":9,"id":1,"ignored":true}""".formatted(sku));
        assertEquals(201, created.status(), created.response().body());
        long id = number(created.object().get("id"));
        assertEquals("/items/" + id, created.response().headers().firstValue("Location").orElseThrow());
        assertNull(created.object().get("description"));
        assertEquals(Map.of("id", BigDecimal.valueOf(9), "code", "CAT-0009", "name", "Category 9"),
                created.object().get("category"));
        Instant written = Instant.parse((String) created.object().get("updatedAt"));
        assertTrue(Duration.between(written, Instant.now()).abs().toMinutes() < 1, written.toString());

        assertEquals(409, call("POST", "/items", """
                {"sku":"%s","name":"Dup","price":1,"stock":1,"categoryId":999999999}""".formatted(sku)).status());
        var unknownCategory = call("PUT", "/items/" + id, """
                {"sku":"%s","name":"Test","price":1,"stock":1,"categoryId":999999999}""".formatted(sku));
        assertEquals(422, unknownCategory.status());
        assertEquals(List.of(Map.of("field", "categoryId", "message", "category 999999999 does not exist")),
                unknownCategory.object().get("errors"));

        var updated = call("PUT", "/items/" + id, """
                {"sku":"%s","name":"Renamed","price":0,"stock":0,"description":"  ","categoryId":10}""".formatted(sku));
        assertEquals(200, updated.status(), updated.response().body());
        assertEquals("Renamed", updated.object().get("name"));
        assertEquals("  ", updated.object().get("description"));
        assertEquals("CAT-0010", ((Map<?, ?>) updated.object().get("category")).get("code"));
        assertEquals(updated.object(), get("/items/" + id).object());

        assertEquals(204, call("DELETE", "/items/" + id, null).status());
        assertEquals(404, get("/items/" + id).status());
        assertEquals(404, call("DELETE", "/items/" + id, null).status());
    }

    @Test
    void createsUpdatesAndDeletesACategory() throws Exception {
        String code = "T-" + RUN;
        var created = call("POST", "/categories", "{\"code\":\"%s\",\"name\":\"Test\"}".formatted(code));
        assertEquals(201, created.status(), created.response().body());
        long id = number(created.object().get("id"));
        assertEquals("/categories/" + id, created.response().headers().firstValue("Location").orElseThrow());

        assertEquals(409, call("POST", "/categories", "{\"code\":\"%s\",\"name\":\"Dup\"}".formatted(code)).status());
        assertEquals(409, call("PUT", "/categories/" + id, "{\"code\":\"CAT-0001\",\"name\":\"Dup\"}").status());
        var kept = call("PUT", "/categories/" + id, "{\"code\":\"%s\",\"name\":\"Renamed\"}".formatted(code));
        assertEquals(200, kept.status());
        assertEquals("Renamed", kept.object().get("name"));

        assertEquals(204, call("DELETE", "/categories/" + id, null).status());
        assertEquals(404, get("/categories/" + id).status());
    }

    @Test
    void refusesToDeleteACategoryWithItems() throws Exception {
        var reply = call("DELETE", "/categories/7", null);
        assertEquals(409, reply.status());
        assertEquals("category 7 still has items", reply.object().get("detail"));
        assertEquals(200, get("/categories/7").status());
    }

    @Test
    void ordersErrorsAsTheContractSays() throws Exception {
        String invalid = "{\"sku\":\"\"}";
        assertEquals(422, call("PUT", "/items/999999999", invalid).status());
        assertEquals(404, call("PUT", "/items/999999999",
                "{\"sku\":\"T-x\",\"name\":\"n\",\"price\":1,\"stock\":1,\"categoryId\":999999999}").status());
        assertEquals(409, call("POST", "/items",
                "{\"sku\":\"SKU-000001\",\"name\":\"n\",\"price\":1,\"stock\":1,\"categoryId\":999999999}").status());
        assertEquals(400, call("PUT", "/items/abc", invalid).status());
    }

    @Test
    void redirectsToAnAvatar() throws Exception {
        for (int i = 0; i < 20; i++) {
            var reply = get("/avatar");
            assertEquals(302, reply.status());
            String location = reply.response().headers().firstValue("Location").orElseThrow();
            assertTrue(location.matches("https://avatars\\.test/Renard-[123]\\.png"), location);
        }
    }

    @Test
    void reportsHealth() throws Exception {
        var reply = get("/health");
        assertEquals(200, reply.status());
        assertEquals(Map.of("status", "UP"), reply.object());
    }
}
