package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PagingTest extends ApiTest {

    @Test
    void firstPageOfItemsByDefault() {
        JsonNode page = body(target("/items").request().get());
        JsonNode content = page.get("content");
        assertEquals(20, content.size());
        for (int i = 0; i < 20; i++) {
            assertEquals(i + 1, content.get(i).get("id").asLong());
        }
        assertEquals(20, page.get("page").get("size").asInt());
        assertEquals(0, page.get("page").get("number").asLong());
        long total = page.get("page").get("totalElements").asLong();
        assertTrue(total >= 100_000, "totalElements " + total);
        assertEquals((total + 19) / 20, page.get("page").get("totalPages").asLong());
        JsonNode first = content.get(0);
        assertEquals("SKU-000001", first.get("sku").asText());
        assertEquals("CAT-0001", first.get("category").get("code").asText());
    }

    @Test
    void pageAndSizeSelectTheRows() {
        JsonNode content = body(target("/categories").queryParam("page", 1).queryParam("size", 100).request().get())
                .get("content");
        assertEquals(100, content.size());
        assertEquals(101, content.get(0).get("id").asLong());
        assertEquals(200, content.get(99).get("id").asLong());
    }

    @Test
    void filteringItemsByCategory() {
        JsonNode page = body(target("/items").queryParam("categoryId", 345).queryParam("size", 100).request().get());
        assertEquals(50, page.get("page").get("totalElements").asLong());
        assertEquals(1, page.get("page").get("totalPages").asLong());
        assertEquals(345, page.get("content").get(0).get("id").asLong());
        page.get("content").forEach(item -> assertEquals(345, item.get("categoryId").asLong()));
    }

    @Test
    void unknownCategoryFilterIsAnEmptyPage() {
        JsonNode page = body(target("/items").queryParam("categoryId", 987654321).request().get());
        assertEquals(0, page.get("content").size());
        assertEquals(0, page.get("page").get("totalElements").asLong());
        assertEquals(0, page.get("page").get("totalPages").asLong());
    }

    @Test
    void pagePastTheEndIsEmptyEvenWhenTheOffsetOverflows() {
        JsonNode page = body(target("/items").queryParam("page", Long.MAX_VALUE).queryParam("size", 100).request().get());
        assertEquals(0, page.get("content").size());
        assertEquals(Long.MAX_VALUE, page.get("page").get("number").asLong());
        assertTrue(page.get("page").get("totalElements").asLong() >= 100_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"page=", "page=-1", "page=x", "page=1.5", "page=99999999999999999999", "size=",
            "size=0", "size=101", "size=ten", "categoryId=", "categoryId=abc", "categoryId=99999999999999999999"})
    void malformedQueryParametersAre400(String query) {
        String[] pair = query.split("=", 2);
        assertProblem(400, target("/items").queryParam(pair[0], pair[1]).request().get());
    }
}
