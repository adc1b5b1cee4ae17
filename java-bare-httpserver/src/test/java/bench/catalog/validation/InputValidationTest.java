package bench.catalog.validation;

import bench.catalog.category.CategoryInput;
import bench.catalog.error.FieldError;
import bench.catalog.error.ValidationException;
import bench.catalog.item.ItemInput;
import bench.catalog.json.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The field rules of API.md, through the same parser the server uses. */
class InputValidationTest {

    private static final String VALID_ITEM = "\"sku\":\"S-1\",\"name\":\"Item\",\"price\":9.99,\"stock\":3,\"categoryId\":7";

    private static Object json(String text) {
        byte[] bytes = text.getBytes(UTF_8);
        return JsonParser.parse(bytes, bytes.length);
    }

    private static Set<String> invalidItemFields(String body) {
        var error = assertThrows(ValidationException.class, () -> ItemInput.from(json(body)));
        return error.errors().stream().map(FieldError::field).collect(Collectors.toSet());
    }

    private static Set<String> invalidCategoryFields(String body) {
        var error = assertThrows(ValidationException.class, () -> CategoryInput.from(json(body)));
        return error.errors().stream().map(FieldError::field).collect(Collectors.toSet());
    }

    @Test
    void acceptsAValidItemAndIgnoresUnknownFields() {
        var input = ItemInput.from(json("{" + VALID_ITEM + ",\"id\":5,\"updatedAt\":\"x\",\"extra\":[1,{}]}"));
        assertEquals(new ItemInput("S-1", "Item", new BigDecimal("9.99"), 3, null, 7), input);
    }

    @Test
    void judgesPriceByValue() {
        var input = ItemInput.from(json("{\"sku\":\"S\",\"name\":\"N\",\"price\":1.230,\"stock\":3.0,\"categoryId\":7}"));
        assertEquals(0, new BigDecimal("1.23").compareTo(input.price()));
        assertEquals(3, input.stock());
        assertEquals(Set.of("price"), invalidItemFields("{\"sku\":\"S\",\"name\":\"N\",\"price\":1.234,\"stock\":3,\"categoryId\":7}"));
    }

    /** spec/API.md, "price": judged by the exact value of the number's text, never through a double. */
    @ParameterizedTest
    @CsvSource({"1e2, 100", "1E+2, 100", "125E-2, 1.25", "1.10000000000000000000, 1.1", "1.230, 1.23", "0, 0",
            "0.0, 0", "99999999.99, 99999999.99", "12e-1, 1.2"})
    void acceptsPricesByTheirExactValue(String price, BigDecimal value) {
        var input = ItemInput.from(json("{\"sku\":\"S\",\"name\":\"N\",\"price\":" + price + ",\"stock\":3,\"categoryId\":7}"));
        assertEquals(0, value.compareTo(input.price()), input.price()::toString);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"9.99\"", "true", "null", "-0.01", "100000000", "99999999.991", "1e-999999999999", "1e999999999999", "[]",
            "1.00000000000000001", "99999999.995", "99999999.990000000001", "1.234", "0.001", "1e-3", "1e8", "1e400",
            "1e-400", "-1e400", "12345678901234567890", "0.0000000000000000000000000000001"})
    void refusesInvalidPrices(String price) {
        assertEquals(Set.of("price"), invalidItemFields(
                "{\"sku\":\"S\",\"name\":\"N\",\"price\":" + price + ",\"stock\":3,\"categoryId\":7}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"3\"", "false", "1.5", "-1", "2147483648", "1e100", "1e-99999999999", "{}"})
    void refusesInvalidStock(String stock) {
        assertEquals(Set.of("stock"), invalidItemFields(
                "{\"sku\":\"S\",\"name\":\"N\",\"price\":1,\"stock\":" + stock + ",\"categoryId\":7}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"7\"", "true", "1.5", "null", "9223372036854775808"})
    void refusesInvalidCategoryIds(String categoryId) {
        assertEquals(Set.of("categoryId"), invalidItemFields(
                "{\"sku\":\"S\",\"name\":\"N\",\"price\":1,\"stock\":3,\"categoryId\":" + categoryId + "}"));
    }

    /** Well-formed ids that name no category are for the database to refuse, after the absent item. */
    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "-9223372036854775808"})
    void acceptsIdsThatOnlyTheDatabaseCanRefuse(String categoryId) {
        var input = ItemInput.from(json(
                "{\"sku\":\"S\",\"name\":\"N\",\"price\":1,\"stock\":3,\"categoryId\":" + categoryId + "}"));
        assertEquals(Long.parseLong(categoryId), input.categoryId());
    }

    @Test
    void reportsEveryInvalidField() {
        assertEquals(Set.of("sku", "name", "price", "stock", "categoryId"), invalidItemFields("{}"));
        assertEquals(Set.of("sku", "description"), invalidItemFields(
                "{" + VALID_ITEM.replace("\"S-1\"", "\"  \\t\\r\\n\"") + ",\"description\":5}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "[]", "\"x\"", "42", "true"})
    void refusesBodiesThatAreNotObjects(String body) {
        var error = assertThrows(ValidationException.class, () -> CategoryInput.from(json(body)));
        assertEquals(List.of(""), error.errors().stream().map(FieldError::field).toList());
    }

    @Test
    void countsLengthInCodePoints() {
        String emoji32 = "😀".repeat(32);
        assertEquals(emoji32, CategoryInput.from(json("{\"code\":\"" + emoji32 + "\",\"name\":\"n\"}")).code());
        assertEquals(Set.of("code"), invalidCategoryFields("{\"code\":\"" + "a".repeat(33) + "\",\"name\":\"n\"}"));
        assertEquals(Set.of("name"), invalidCategoryFields("{\"code\":\"c\",\"name\":\"" + "é".repeat(129) + "\"}"));
    }

    @CsvSource(delimiter = '|', textBlock = """
            {"code":"c","name":"a\\u0000b"}      | name
            {"code":"\\ud800","name":"n"}        | code
            {"code":"","name":""}                | code,name
            {"code":123,"name":["n"]}            | code,name
            {"name":"n"}                         | code
            """)
    @ParameterizedTest
    void refusesInvalidStrings(String body, String fields) {
        assertEquals(Set.of(fields.split(",")), invalidCategoryFields(body));
    }

    @Test
    void keepsStringsAsGivenAndAllowsBlankDescriptions() {
        var input = ItemInput.from(json("{" + VALID_ITEM.replace("\"Item\"", "\" padded \"") + ",\"description\":\"  \"}"));
        assertEquals(" padded ", input.name());
        assertEquals("  ", input.description());
        assertNull(ItemInput.from(json("{" + VALID_ITEM + ",\"description\":null}")).description());
    }

    @Test
    void allowsTheLongestDescription() {
        String longest = "d".repeat(ItemInput.DESCRIPTION_LENGTH);
        assertEquals(longest, ItemInput.from(json("{" + VALID_ITEM + ",\"description\":\"" + longest + "\"}")).description());
        assertTrue(invalidItemFields("{" + VALID_ITEM + ",\"description\":\"" + longest + "d\"}").contains("description"));
    }
}
