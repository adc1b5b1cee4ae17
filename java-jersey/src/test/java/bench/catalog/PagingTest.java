package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.client.WebTarget;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PagingTest extends ApiTest {

    /** A target for a URI sent as it is written (already percent-encoded). */
    private WebTarget target(URI uri) {
        return client().target(uri);
    }

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

    /**
     * Integer query parameters are [+-]?[0-9]+ with ASCII digits, in range, after the usual form
     * decoding: "+" is a space there, so {@code page=+5} is " 5" and a 400, while {@code page=%2B5} is 5.
     */
    @ParameterizedTest
    @ValueSource(strings = {"page=", "page=-1", "page=x", "page=1.5", "page=99999999999999999999", "size=",
            "size=0", "size=101", "size=ten", "categoryId=", "categoryId=abc", "categoryId=99999999999999999999",
            "page=%D9%A1%D9%A2", "page=%EF%BC%95", "size=%D9%A1%D9%A2", "size=%EF%BC%95", "categoryId=%D9%A1%D9%A2",
            "categoryId=%EF%BC%95", "page=+5", "page=%205", "page=5%20", "page=1_0", "page=1e3", "page=0x10",
            "page=%2B", "size=-", "categoryId=%2B-5", "page=-0x1"})
    void malformedQueryParametersAre400(String query) {
        assertProblem(400, target(URI.create(getBaseUri() + "items?" + query)).request().get());
        assertProblem(400, target(URI.create(getBaseUri() + "categories/345/items?" + query.replace("categoryId", "page")))
                .request().get());
    }

    @Test
    void signedAndZeroPaddedQueryIntegers() {
        JsonNode page = body(target(URI.create(getBaseUri() + "items?page=%2B1&size=007&categoryId=%2B345")).request().get());
        assertEquals(1, page.get("page").get("number").asLong());
        assertEquals(7, page.get("page").get("size").asInt());
        assertEquals(50, page.get("page").get("totalElements").asLong());
        assertEquals(14345, page.get("content").get(0).get("id").asLong());
    }
}
