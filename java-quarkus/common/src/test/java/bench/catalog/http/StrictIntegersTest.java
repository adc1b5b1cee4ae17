package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StrictIntegersTest {

    @ParameterizedTest
    @CsvSource({"5, 5", "+5, 5", "007, 7", "-3, -3", "9223372036854775807, 9223372036854775807",
        "-9223372036854775808, -9223372036854775808"})
    void asciiIntegersInRange(String written, long value) {
        assertEquals(value, StrictIntegers.parse("id", written));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " 5", "5 ", "1_0", "1.0", "1e3", "0x10", "+", "-", "++5", "+-5", "\u0661\u0662",
        "\uFF15", "9223372036854775808", "-9223372036854775809", "abc"})
    void everythingElseIsRefused(String written) {
        assertThrows(InvalidParameterException.class, () -> StrictIntegers.parse("id", written));
    }

    @Test
    void pagingDefaultsAndBounds() {
        assertEquals(new PageRequest(0, 20), PageRequest.of(null, null));
        assertThrows(InvalidParameterException.class, () -> PageRequest.of("-1", null));
        assertThrows(InvalidParameterException.class, () -> PageRequest.of(null, "0"));
        assertThrows(InvalidParameterException.class, () -> PageRequest.of(null, "101"));
    }

    @Test
    void aPagePastTheEndIsNotAskedForEvenWhenItsOffsetOverflows() {
        assertEquals(-1, new PageRequest(Long.MAX_VALUE, 100).offsetWithin(100_000));
        assertEquals(-1, new PageRequest(5000, 20).offsetWithin(100_000));
        assertEquals(99_980, new PageRequest(4999, 20).offsetWithin(100_000));
    }
}
