package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CategoryResourceTest extends ApiTest {

    @Test
    void seededCategory() {
        JsonNode category = body(target("/categories/42").request().get());
        assertEquals(42, category.get("id").asLong());
        assertEquals("CAT-0042", category.get("code").asText());
        assertEquals("Category 42", category.get("name").asText());
        assertEquals(Instant.parse("2026-01-01T00:00:42Z"), Instant.parse(category.get("updatedAt").asText()));
        assertProblem(404, target("/categories/987654321").request().get());
    }

    @Test
    void createReplaceDelete() {
        String code = unique("C");
        Response created = send("POST", "/categories", "{\"code\":\"" + code + "\",\"name\":\"Test\"}");
        assertEquals(201, created.getStatus());
        JsonNode category = body(created);
        long id = category.get("id").asLong();
        assertTrue(created.getLocation().getPath().endsWith("/categories/" + id));
        ItemResourceTest.assertRecent(category.get("updatedAt").asText());

        assertProblem(409, send("POST", "/categories", "{\"code\":\"" + code + "\",\"name\":\"Again\"}"));
        JsonNode replaced = body(send("PUT", "/categories/" + id, "{\"code\":\"" + code + "\",\"name\":\"Renamed\"}"));
        assertEquals("Renamed", replaced.get("name").asText());
        assertProblem(409, send("PUT", "/categories/" + id, "{\"code\":\"CAT-0001\",\"name\":\"Taken\"}"));

        JsonNode empty = body(target("/categories/" + id + "/items").request().get());
        assertEquals(0, empty.get("content").size());
        assertEquals(0, empty.get("page").get("totalPages").asLong());

        assertEquals(204, target("/categories/" + id).request().delete().getStatus());
        assertProblem(404, target("/categories/" + id).request().delete());
        assertProblem(404, send("PUT", "/categories/" + id, "{\"code\":\"" + code + "\",\"name\":\"Gone\"}"));
    }

    @Test
    void categoryWithItemsCannotBeDeleted() {
        assertProblem(409, target("/categories/1").request().delete());
        assertEquals(200, target("/categories/1").request().get().getStatus());
    }

    @Test
    void invalidCategoryBodies() {
        assertEquals(java.util.Set.of("code", "name"), invalidFields(send("POST", "/categories", "{\"code\":\"\"}")));
        assertEquals(java.util.Set.of("code"),
                invalidFields(send("POST", "/categories", "{\"code\":\"" + "c".repeat(33) + "\",\"name\":\"n\"}")));
    }

    @Test
    void itemsOfACategoryThroughTheSubResource() {
        JsonNode page = body(target("/categories/345/items").queryParam("size", 2).queryParam("page", 1)
                .request().get());
        assertEquals(50, page.get("page").get("totalElements").asLong());
        assertEquals(25, page.get("page").get("totalPages").asLong());
        assertEquals(4345, page.get("content").get(0).get("id").asLong());
        assertEquals(6345, page.get("content").get(1).get("id").asLong());
        assertProblem(404, target("/categories/987654321/items").request().get());
        assertProblem(400, target("/categories/345/items").queryParam("size", 0).request().get());
    }
}
