package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Path ids and integer query parameters: [+-]?[0-9]+ in the signed 64-bit range, nothing else. */
class StrictIntegersTest {

    @ParameterizedTest
    @CsvSource({"0, 0", "5, 5", "+5, 5", "-5, -5", "007, 7", "-0, 0", "+0, 0",
            "9223372036854775807, 9223372036854775807", "-9223372036854775808, -9223372036854775808",
            "+9223372036854775807, 9223372036854775807", "0000000000000000000000042, 42"})
    void parses(String text, long value) {
        assertEquals(value, StrictIntegers.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "+", "-", "++5", "+-5", "--5", "5+", " 5", "5 ", "\t5", "5\n", "1_0", "1.0", "1e3",
            "0x10", "abc", "١٢", "٥", "５", "۵", "५", "𝟓", "9223372036854775808", "-9223372036854775809",
            "99999999999999999999", "5\u0000", "\u00a05"})
    void rejects(String text) {
        assertThrows(NumberFormatException.class, () -> StrictIntegers.parse(text));
    }
}
