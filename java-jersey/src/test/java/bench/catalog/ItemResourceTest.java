package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ItemResourceTest extends ApiTest {

    private static final int MIB = 1024 * 1024;

    @Test
    void seededItemWithItsCategoryEmbedded() {
        JsonNode item = body(target("/items/12345").request().get());
        assertEquals(12345, item.get("id").asLong());
        assertEquals("SKU-012345", item.get("sku").asText());
        assertEquals("Item 12345", item.get("name").asText());
        assertTrue(item.get("price").isNumber());
        assertEquals(0, item.get("price").decimalValue().compareTo(new java.math.BigDecimal("600.55")));
        assertEquals(345, item.get("stock").asInt());
        assertEquals(345, item.get("categoryId").asLong());
        assertEquals(List.of("id", "code", "name"), fieldNames(item.get("category")));
        assertEquals("CAT-0345", item.get("category").get("code").asText());
        assertEquals("Category 345", item.get("category").get("name").asText());
        assertEquals(Instant.parse("2026-01-01T03:25:45Z"), Instant.parse(item.get("updatedAt").asText()));
        assertTrue(item.get("description").asText().startsWith("Description of item 12345."));
    }

    @Test
    void createReplaceDelete() {
        String sku = unique("SKU-T");
        Response created = send("POST", "/items",
                "{\"sku\":\"" + sku + "\",\"name\":\"Test\",\"price\":1.230,\"stock\":7,\"categoryId\":3,"
                        + "\"description\":\"\",\"id\":1,\"updatedAt\":\"2000-01-01T00:00:00Z\",\"extra\":true}");
        assertEquals(201, created.getStatus());
        JsonNode item = body(created);
        long id = item.get("id").asLong();
        assertTrue(id > 100_000, "id " + id);
        assertTrue(created.getLocation().getPath().endsWith("/items/" + id));
        assertEquals(0, item.get("price").decimalValue().compareTo(new java.math.BigDecimal("1.23")));
        assertEquals("", item.get("description").asText());
        assertEquals("CAT-0003", item.get("category").get("code").asText());
        assertRecent(item.get("updatedAt").asText());

        JsonNode replaced = body(send("PUT", "/items/" + id,
                "{\"sku\":\"" + sku + "\",\"name\":\"Renamed\",\"price\":99999999.99,\"stock\":2147483647,\"categoryId\":4}"));
        assertEquals("Renamed", replaced.get("name").asText());
        assertTrue(replaced.get("description").isNull(), "PUT without description sets it to null");
        assertEquals(4, replaced.get("categoryId").asLong());
        assertEquals("CAT-0004", replaced.get("category").get("code").asText());
        assertEquals(replaced, body(target("/items/" + id).request().get()));

        assertEquals(204, target("/items/" + id).request().delete().getStatus());
        assertProblem(404, target("/items/" + id).request().get());
        assertProblem(404, target("/items/" + id).request().delete());
    }

    @Test
    void takenSkuIsAConflictAndComesBeforeAnUnknownCategory() {
        assertProblem(409, send("POST", "/items", item("SKU-000001", 3)));
        assertProblem(409, send("POST", "/items", item("SKU-000001", 987654321)));
    }

    @Test
    void unknownCategoryIs422OnCategoryId() {
        assertEquals(Set.of("categoryId"), invalidFields(send("POST", "/items", item(unique("SKU-T"), 987654321))));
        assertEquals(Set.of("categoryId"), invalidFields(send("PUT", "/items/1", item("SKU-000001", 987654321))));
    }

    @Test
    void absentItemIs404OnlyAfterTheBodyIsValid() {
        assertProblem(404, send("PUT", "/items/999999999", item(unique("SKU-T"), 987654321)));
        assertEquals(Set.of("name", "price", "stock", "categoryId"),
                invalidFields(send("PUT", "/items/999999999", "{\"sku\":\"x\"}")));
    }

    @Test
    void everyInvalidFieldIsReported() {
        String body = "{\"sku\":\"  \",\"name\":12,\"price\":\"9.99\",\"stock\":1.5,"
                + "\"description\":false,\"categoryId\":\"3\"}";
        assertEquals(Set.of("sku", "name", "price", "stock", "description", "categoryId"),
                invalidFields(send("POST", "/items", body)));
    }

    @Test
    void valueRules() {
        assertEquals(Set.of("price"), invalidFields(send("POST", "/items", item(unique("S"), 3, "1.234", "1"))));
        assertEquals(Set.of("price"), invalidFields(send("POST", "/items", item(unique("S"), 3, "-0.01", "1"))));
        assertEquals(Set.of("price"), invalidFields(send("POST", "/items", item(unique("S"), 3, "100000000", "1"))));
        assertEquals(Set.of("stock"), invalidFields(send("POST", "/items", item(unique("S"), 3, "1", "-1"))));
        assertEquals(Set.of("stock"), invalidFields(send("POST", "/items", item(unique("S"), 3, "1", "2147483648"))));
        assertEquals(Set.of("stock"), invalidFields(send("POST", "/items", item(unique("S"), 3, "1", "\"5\""))));
    }

    /** A price is judged by the exact decimal value of its JSON number, never as a binary double. */
    @ParameterizedTest
    @CsvSource({"1e2, 100", "125E-2, 1.25", "1.10000000000000000000, 1.1", "1.230, 1.23", "0, 0", "-0.0, 0",
            "99999999.99, 99999999.99", "9999999999E-2, 99999999.99", "0.5e1, 5", "0.001e1, 0.01"})
    void aPriceIsValidByItsExactValue(String price, String value) {
        Response created = send("POST", "/items", item(unique("SKU-P"), 3, price, "1"));
        assertEquals(201, created.getStatus(), price);
        JsonNode item = body(created);
        assertEquals(0, item.get("price").decimalValue().compareTo(new BigDecimal(value)), item.get("price").toString());
        assertEquals(204, target("/items/" + item.get("id").asLong()).request().delete().getStatus());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.00000000000000001", "99999999.995", "99999999.991", "1.234", "-0.01", "100000000",
            "1e400", "-1e400", "1e-400", "1E8", "0.0001e1", "\"9.99\"", "true", "null", "[]", "{}"})
    void aPriceOutsideTheRulesIs422(String price) {
        assertEquals(Set.of("price"), invalidFields(send("POST", "/items", item(unique("SKU-P"), 3, price, "1"))), price);
    }

    @Test
    void lengthsCountCodePointsAndNulIsRejected() {
        String sku = unique("SKU-T");
        String name128 = "\uD83D\uDE00".repeat(128); // 128 code points, 256 UTF-16 units
        Response created = send("POST", "/items", "{\"sku\":\"" + sku + "\",\"name\":\"" + name128
                + "\",\"price\":1,\"stock\":1,\"categoryId\":3}");
        assertEquals(201, created.getStatus());
        JsonNode item = body(created);
        assertEquals(name128, item.get("name").asText());
        assertEquals(204, target("/items/" + item.get("id").asLong()).request().delete().getStatus());

        assertEquals(Set.of("name"), invalidFields(send("POST", "/items", "{\"sku\":\"" + unique("S") + "\",\"name\":\""
                + name128 + "x\",\"price\":1,\"stock\":1,\"categoryId\":3}")));
        assertEquals(Set.of("name"), invalidFields(send("POST", "/items", "{\"sku\":\"" + unique("S")
                + "\",\"name\":\"a\\u0000b\",\"price\":1,\"stock\":1,\"categoryId\":3}")));
    }

    @Test
    void bodyThatIsNotAnObjectIs422OnTheBody() {
        for (String body : List.of("null", "[]", "\"x\"", "42")) {
            assertEquals(Set.of(""), invalidFields(send("POST", "/items", body)), body);
        }
    }

    @Test
    void contentTypeSizeAndSyntaxInThatOrder() {
        assertProblem(415, target("/items").request().post(Entity.text(item("X", 3))));
        assertProblem(415, target("/items").request().post(Entity.text(" ".repeat(MIB + 1))));
        assertProblem(413, send("PUT", "/items/999999999", " ".repeat(MIB + 1)));
        assertProblem(400, send("PUT", "/items/999999999", "{\"sku\": "));
        assertProblem(400, send("POST", "/items", ""));
        // exactly 1 MiB passes the size check; the absent item answers
        String valid = item(unique("S"), 3);
        assertProblem(404, send("PUT", "/items/999999999", valid + " ".repeat(MIB - valid.length())));
    }

    static String item(String sku, long categoryId) {
        return item(sku, categoryId, "9.99", "5");
    }

    static String item(String sku, long categoryId, String price, String stock) {
        return "{\"sku\":\"" + sku + "\",\"name\":\"Test item\",\"price\":" + price + ",\"stock\":" + stock
                + ",\"categoryId\":" + categoryId + "}";
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static void assertRecent(String timestamp) {
        Duration age = Duration.between(Instant.parse(timestamp), Instant.now()).abs();
        assertTrue(age.compareTo(Duration.ofMinutes(1)) < 0, "updatedAt " + timestamp);
    }
}
