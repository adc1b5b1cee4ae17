package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import bench.catalog.data.StockClient;
import bench.catalog.http.CatalogApplication;
import bench.catalog.http.Json;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.test.spi.TestContainerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/** The application on Grizzly as {@link Main} sets it up, through JerseyTest, against the seeded test database. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiTest extends JerseyTest {

    private static final AtomicLong UNIQUE = new AtomicLong(System.currentTimeMillis());

    private StockClient stock;

    @Override
    protected Application configure() {
        forceSet(TestProperties.CONTAINER_PORT, "0");
        stock = new StockClient(stockUrl(), Json.newMapper());
        return new CatalogApplication(TestDatabase.config(), TestDatabase.database(), stock, Json.newMapper());
    }

    /**
     * The upstream of the application's stock client: STOCK_URL's, unless a test fakes one. Called
     * from JerseyTest's constructor, before the subclass's fields are set.
     */
    URI stockUrl() {
        return TestDatabase.config().stockUrl();
    }

    /** JerseyTest builds the application once per test class (in its constructor), and the client with it. */
    @AfterAll
    void closeStockClient() {
        stock.close();
    }

    @Override
    protected TestContainerFactory getTestContainerFactory() {
        return new CatalogTestContainerFactory();
    }

    @Override
    protected void configureClient(ClientConfig config) {
        config.register(JacksonFeature.class);
        // See the 302 of /avatar instead of following it.
        config.property(ClientProperties.FOLLOW_REDIRECTS, false);
    }

    /** A fresh suffix for codes and SKUs, so that tests never collide with the seed or each other. */
    static String unique(String prefix) {
        return prefix + "-" + UNIQUE.incrementAndGet();
    }

    Response send(String method, String path, String json) {
        return target(path).request().method(method, Entity.json(json));
    }

    static JsonNode body(Response response) {
        return response.readEntity(JsonNode.class);
    }

    /** Asserts an RFC 9457 problem with the given status and returns it. */
    static JsonNode assertProblem(int status, Response response) {
        assertEquals(status, response.getStatus());
        assertEquals("application/problem+json", response.getMediaType().toString());
        JsonNode problem = body(response);
        assertEquals("about:blank", problem.get("type").asText());
        assertEquals(status, problem.get("status").asInt());
        assertEquals(false, problem.get("title").asText().isBlank());
        assertEquals(false, problem.get("detail").asText().isBlank());
        return problem;
    }

    /** The set of fields named in a 422's errors[]. */
    static Set<String> invalidFields(Response response) {
        JsonNode problem = assertProblem(422, response);
        Set<String> fields = new TreeSet<>();
        problem.get("errors").forEach(error -> fields.add(error.get("field").asText()));
        return fields;
    }
}
