package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.Config.CategoryItems;
import bench.catalog.data.StockClient;
import bench.catalog.http.CatalogApplication;
import bench.catalog.http.CategoryItemsLocator;
import bench.catalog.http.CategoryItemsMethod;
import bench.catalog.http.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.URI;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code /categories/{id}/items} answers alike through the sub-resource locator and through the
 * resource method of the variant {@code resource-method} (CATEGORY_ITEMS): one server of each.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CategoryItemsRoutingTest {

    private final Map<CategoryItems, HttpServer> servers = new EnumMap<>(CategoryItems.class);
    private final Map<CategoryItems, StockClient> stockClients = new EnumMap<>(CategoryItems.class);
    private final Client client = ClientBuilder.newClient().register(JacksonFeature.class);

    private static Config config(CategoryItems routing) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("CATEGORY_ITEMS", routing == CategoryItems.RESOURCE_METHOD ? "resource-method" : "sub-resource-locator");
        return Config.from(env);
    }

    private static CatalogApplication application(CategoryItems routing, StockClient stock) {
        Config config = config(routing);
        ObjectMapper mapper = Json.newMapper();
        return new CatalogApplication(config, TestDatabase.database(), stock, mapper);
    }

    @BeforeAll
    void start() throws IOException {
        TestDatabase.config();
        for (CategoryItems routing : CategoryItems.values()) {
            StockClient stock = new StockClient(config(routing).stockUrl(), Json.newMapper());
            HttpServer server = Main.createServer(URI.create("http://127.0.0.1:0/"), application(routing, stock),
                    Json.newMapper(), 10);
            server.start();
            stockClients.put(routing, stock);
            servers.put(routing, server);
        }
    }

    @AfterAll
    void stop() {
        client.close();
        servers.values().forEach(HttpServer::shutdownNow);
        stockClients.values().forEach(StockClient::close);
    }

    private WebTarget target(CategoryItems routing, String path) {
        return client.target("http://127.0.0.1:" + servers.get(routing).getListener("grizzly").getPort()).path(path);
    }

    @Test
    void theSettingChoosesTheResourceClass() {
        try (StockClient stock = new StockClient(URI.create("http://127.0.0.1:8099"), Json.newMapper())) {
            var locator = application(CategoryItems.SUB_RESOURCE_LOCATOR, stock).getClasses();
            assertTrue(locator.contains(CategoryItemsLocator.class));
            assertFalse(locator.contains(CategoryItemsMethod.class));
            var method = application(CategoryItems.RESOURCE_METHOD, stock).getClasses();
            assertTrue(method.contains(CategoryItemsMethod.class));
            assertFalse(method.contains(CategoryItemsLocator.class));
        }
    }

    @ParameterizedTest
    @EnumSource(CategoryItems.class)
    void aPageOfTheCategorysItems(CategoryItems routing) {
        JsonNode page = target(routing, "/categories/+345/items").queryParam("size", 2).queryParam("page", 1)
                .request().get(JsonNode.class);
        assertEquals(50, page.get("page").get("totalElements").asLong());
        assertEquals(4345, page.get("content").get(0).get("id").asLong());
        assertEquals(6345, page.get("content").get(1).get("id").asLong());
        assertEquals("CAT-0345", page.get("content").get(0).get("category").get("code").asText());
    }

    @ParameterizedTest
    @EnumSource(CategoryItems.class)
    void errorsInTheContractsOrder(CategoryItems routing) {
        assertEquals(404, target(routing, "/categories/987654321/items").request().get().getStatus());
        assertEquals(404, target(routing, "/categories/1/items/").request().get().getStatus());
        assertEquals(400, target(routing, "/categories/abc/items").request().get().getStatus());
        assertEquals(400, target(routing, "/categories/345/items").queryParam("size", 0).request().get().getStatus());
        // The method is matched before the id is read: a wrong method is a 405 even with a malformed id.
        Response post = target(routing, "/categories/abc/items").request().post(Entity.json("{}"));
        assertEquals(405, post.getStatus());
        assertEquals("application/problem+json", post.getMediaType().toString());
        assertTrue(post.getHeaderString("Allow").contains("GET"), post.getHeaderString("Allow"));
    }
}
