package bench.catalog.http;

import bench.catalog.error.ApiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** spec/API.md, "Integers in paths and query parameters": [+-]?[0-9]+ in the signed 64-bit range. */
class ExchangeTest {

    @ParameterizedTest
    @CsvSource({"5, 5", "+5, 5", "-5, -5", "007, 7", "+005, 5", "-0, 0", "0000000000000000000005, 5",
            "9223372036854775807, 9223372036854775807", "-9223372036854775808, -9223372036854775808"})
    void readsSignedAsciiIntegers(String text, long value) {
        assertEquals(value, Exchange.parseLong(text, "bad"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "+", "-", "++5", "+-5", "--5", "5-", "5+", " 5", "5 ", "\t5", "5\n", "1_0", "1.0",
            "1e3", "0x10", "١٢", "５", "9223372036854775808", "-9223372036854775809", "+9223372036854775808"})
    void refusesEverythingElse(String text) {
        var refused = assertThrows(ApiException.class, () -> Exchange.parseLong(text, "bad"));
        assertEquals(400, refused.status());
    }

    @ParameterizedTest
    @CsvSource({"5, 5", "+5, +5", "%2B5, +5", "%2b5, +5", "%31, 1", "%D9%A1, ١", "%20, ' '"})
    void decodesAPathSegmentKeepingItsPlusSigns(String raw, String decoded) {
        assertEquals(decoded, Exchange.decodePathSegment(raw));
    }
}
