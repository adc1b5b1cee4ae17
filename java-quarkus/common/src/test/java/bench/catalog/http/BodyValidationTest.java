package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.Set;
import java.util.stream.Collectors;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The field rules of spec/API.md on the bodies as Jackson binds them and Hibernate Validator checks them. */
class BodyValidationTest {

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static ValidatorFactory factory;
    private static Validator validator;

    @BeforeAll
    static void validator() {
        factory = Validation.byDefaultProvider().configure()
                .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory();
        validator = factory.getValidator();
    }

    @AfterAll
    static void close() {
        factory.close();
    }

    private static Set<String> invalidFields(String item) throws Exception {
        return validator.validate(JSON.readValue(item, ItemBody.class)).stream()
                .map(ConstraintViolation::getPropertyPath).map(Object::toString).collect(Collectors.toSet());
    }

    private static String item(String price) {
        return "{\"sku\":\"S\",\"name\":\"n\",\"price\":" + price + ",\"stock\":1,\"categoryId\":1}";
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e2", "1E+2", "125E-2", "1.10000000000000000000", "1.230", "0", "0.0", "99999999.99"})
    void pricesByTheirExactValue(String price) throws Exception {
        assertEquals(Set.of(), invalidFields(item(price)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.00000000000000001", "99999999.995", "1.234", "0.001", "-0.01", "100000000", "1e400",
        "1e-400", "\"9.99\"", "true", "null"})
    void pricesOutsideTheRule(String price) throws Exception {
        assertEquals(Set.of("price"), invalidFields(item(price)));
    }

    @Test
    void everyInvalidFieldIsListed() throws Exception {
        assertEquals(Set.of("sku", "name", "price", "stock", "categoryId", "description"),
                invalidFields("{\"sku\":\" \\t\",\"name\":123,\"stock\":1.5,\"categoryId\":\"3\",\"description\":7}"));
    }

    @Test
    void lengthsCountCodePointsAndNulIsRefused() throws Exception {
        String emoji = "\\uD83D\\uDE00".repeat(32);
        assertEquals(Set.of(), validator.validate(JSON.readValue("{\"code\":\"" + emoji + "\",\"name\":\"n\"}",
                CategoryBody.class)).stream().map(v -> v.getPropertyPath().toString()).collect(Collectors.toSet()));
        assertEquals(1, validator.validate(JSON.readValue("{\"code\":\"a\\u0000\",\"name\":\"n\"}", CategoryBody.class)).size());
    }

    @Test
    void descriptionIsOptionalAndMayBeBlank() throws Exception {
        assertEquals(Set.of(), invalidFields("{\"sku\":\"S\",\"name\":\"n\",\"price\":1,\"stock\":0,\"categoryId\":-4,\"description\":\" \"}"));
        assertEquals(Set.of(), invalidFields("{\"sku\":\"S\",\"name\":\"n\",\"price\":1,\"stock\":2147483647,\"categoryId\":1,\"description\":null}"));
        assertEquals(Set.of("stock"), invalidFields("{\"sku\":\"S\",\"name\":\"n\",\"price\":1,\"stock\":2147483648,\"categoryId\":1}"));
    }
}
