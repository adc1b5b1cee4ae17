package bench.catalog;

import static bench.catalog.FakeStock.HANG;
import static bench.catalog.FakeStock.json;
import static bench.catalog.FakeStock.quantity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** GET /items/{id}/stock through Jersey and the error map, against a fake upstream. */
class StockResourceTest extends ApiTest {

    // Static: JerseyTest builds the application, and asks for its STOCK_URL, in its constructor.
    private static final FakeStock UPSTREAM = startUpstream();

    private static FakeStock startUpstream() {
        try {
            return FakeStock.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.close();
    }

    @Override
    URI stockUrl() {
        return UPSTREAM.url();
    }

    @Test
    void theQuantityIsAnsweredWithTheIdAskedFor() {
        long id = UPSTREAM.newId();
        UPSTREAM.script(id, json(200, "{\"itemId\":7,\"quantity\":345,\"warehouse\":\"test\"}"));
        Response response = target("/items/" + id + "/stock").request().get();
        assertEquals(200, response.getStatus());
        assertEquals("application/json", response.getMediaType().toString());
        assertEquals("{\"itemId\":" + id + ",\"quantity\":345}", response.readEntity(String.class));
    }

    @ParameterizedTest
    @ValueSource(strings = {"+%d", "%%2B%d", "00%d"})
    void theUpstreamIsAskedForTheCanonicalId(String written) {
        long id = UPSTREAM.newId();
        UPSTREAM.script(id, quantity(id, "5"));
        JsonNode stock = body(target("/items/" + written.formatted(id) + "/stock").request().get());
        assertEquals(id, stock.get("itemId").asLong());
        assertEquals(List.of("/stock/" + id), UPSTREAM.asked(id).stream().map(FakeStock.Asked::path).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1.5", "99999999999999999999", "%20", "+"})
    void anIdThatIsNotAnIntegerIs400AndTheUpstreamIsNotAsked(String id) {
        int before = UPSTREAM.asked().size();
        assertProblem(400, target("/items/" + id + "/stock").request().get());
        assertEquals(before, UPSTREAM.asked().size());
    }

    @Test
    void noStockRecordIs404() {
        JsonNode problem = assertProblem(404, target("/items/" + UPSTREAM.newId() + "/stock").request().get());
        assertTrue(problem.get("detail").asText().startsWith("no stock record for item "));
    }

    @Test
    void anUnusableAnswerIs502() {
        long id = UPSTREAM.newId();
        UPSTREAM.script(id, json(500, "{}"));
        JsonNode problem = assertProblem(502, target("/items/" + id + "/stock").request().get());
        assertEquals("Bad Gateway", problem.get("title").asText());
    }

    @Test
    void noAnswerInTimeIs504() {
        long id = UPSTREAM.newId();
        UPSTREAM.script(id, HANG);
        JsonNode problem = assertProblem(504, target("/items/" + id + "/stock").request().get());
        assertEquals("Gateway Timeout", problem.get("title").asText());
    }

    @Test
    void otherMethodsAre405WithAllow() {
        long id = UPSTREAM.newId();
        Response response = send("POST", "/items/" + id + "/stock", "{}");
        assertProblem(405, response);
        assertTrue(response.getHeaderString("Allow").contains("GET"), response.getHeaderString("Allow"));
        assertEquals(List.of(), UPSTREAM.asked(id));
    }
}
