package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import bench.catalog.errors.FieldError;
import bench.catalog.errors.InvalidFieldsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The field rules of spec/API.md on parsed bodies: JSON types, Bean Validation, every invalid field at once. */
class RequestBodiesTest {

    private static final ObjectMapper MAPPER = Json.newMapper();
    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();
    private static final RequestBodies BODIES = new RequestBodies(VALIDATION.getValidator());
    private static final String VALID_ITEM = "{\"sku\":\"S\",\"name\":\"n\",\"price\":1,\"stock\":1,\"categoryId\":1}";

    @AfterAll
    static void closeValidation() {
        VALIDATION.close();
    }

    private static ItemRequest item(String json) throws Exception {
        return BODIES.read(MAPPER.readTree(json), ItemRequest::read);
    }

    /** The invalid fields of an item body with {@code changes} merged into a valid one. */
    private static Map<String, String> invalidItem(String changes) throws Exception {
        ObjectNode body = (ObjectNode) MAPPER.readTree(VALID_ITEM);
        body.setAll((ObjectNode) MAPPER.readTree(changes));
        InvalidFieldsException error = assertThrows(InvalidFieldsException.class, () -> BODIES.read(body, ItemRequest::read));
        return error.errors().stream().collect(Collectors.toMap(FieldError::field, FieldError::message));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1e2 | 100", "125E-2 | 1.25", "1.10000000000000000000 | 1.1", "1.230 | 1.23", "0.0 | 0",
            "99999999.99 | 99999999.99", "9999999999e-2 | 99999999.99"})
    void pricesAreJudgedByTheirExactValue(String written, BigDecimal value) throws Exception {
        BigDecimal price = item(VALID_ITEM.replace("\"price\":1", "\"price\":" + written)).data().price();
        assertEquals(0, value.compareTo(price), written);
        assertEquals(2, price.scale(), "stored with the column's two decimals");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.00000000000000001", "99999999.995", "1.234", "-0.01", "100000000", "1e400", "1e-400",
            "\"9.99\"", "true", "null", "[1]"})
    void pricesOutsideTheRuleAre422OnPrice(String written) throws Exception {
        assertEquals(Set.of("price"), invalidItem("{\"price\":" + written + "}").keySet(), written);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"stock\":2147483648} | stock", "{\"stock\":1.5} | stock", "{\"stock\":\"3\"} | stock",
            "{\"categoryId\":99999999999999999999} | categoryId", "{\"categoryId\":false} | categoryId",
            "{\"sku\":5} | sku", "{\"sku\":\" \\t\\r\\n\"} | sku", "{\"name\":\"a\\u0000b\"} | name",
            "{\"description\":1} | description"})
    void eachRuleNamesItsField(String changes, String field) throws Exception {
        assertEquals(Set.of(field), invalidItem(changes).keySet(), changes);
    }

    @Test
    void everyInvalidFieldIsListedAndAWrongTypeWinsOverRequired() throws Exception {
        Map<String, String> errors = invalidItem(
                "{\"sku\":\"\",\"name\":null,\"price\":\"x\",\"stock\":-5,\"categoryId\":\"c\",\"description\":1}");
        assertEquals(Set.of("sku", "name", "price", "stock", "categoryId", "description"), errors.keySet());
        assertEquals("must be a string or null", errors.get("description"));
        assertEquals("is required", errors.get("name"));
        assertEquals("must not be blank", errors.get("sku"));
    }

    @Test
    void lengthsCountCodePoints() throws Exception {
        String emoji = "😀".repeat(32);
        assertEquals(emoji, BODIES.read(MAPPER.readTree("{\"code\":\"" + emoji + "\",\"name\":\"n\"}"),
                CategoryRequest::read).code());
        InvalidFieldsException error = assertThrows(InvalidFieldsException.class, () -> BODIES.read(
                MAPPER.readTree("{\"code\":\"" + emoji + "😀\",\"name\":\"n\"}"), CategoryRequest::read));
        assertEquals(Set.of("code"), error.errors().stream().map(FieldError::field).collect(Collectors.toSet()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "[]", "\"x\"", "42", "true"})
    void aBodyThatIsNotAnObjectIs422OnTheBody(String json) {
        InvalidFieldsException error = assertThrows(InvalidFieldsException.class,
                () -> BODIES.read(MAPPER.readTree(json), CategoryRequest::read));
        assertEquals("", error.errors().getFirst().field());
    }
}
