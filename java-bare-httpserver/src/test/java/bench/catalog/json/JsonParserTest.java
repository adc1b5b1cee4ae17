package bench.catalog.json;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonParserTest {

    private static Object parse(String json) {
        byte[] bytes = json.getBytes(UTF_8);
        return JsonParser.parse(bytes, bytes.length);
    }

    private static Object parse(byte[] bytes) {
        return JsonParser.parse(bytes, bytes.length);
    }

    @Test
    void parsesEveryKindOfValue() {
        Object value = parse(" {\"s\":\"x\",\"n\":-12.50e1,\"t\":true,\"f\":false,\"z\":null,\"a\":[1,[],{}]}\r\n");
        var object = (Map<?, ?>) value;
        assertEquals("x", object.get("s"));
        assertEquals(0, new BigDecimal("-125.0").compareTo((BigDecimal) object.get("n")));
        assertEquals(Boolean.TRUE, object.get("t"));
        assertEquals(Boolean.FALSE, object.get("f"));
        assertTrue(object.containsKey("z"));
        assertNull(object.get("z"));
        assertEquals(List.of(BigDecimal.ONE, List.of(), Map.of()), object.get("a"));
    }

    @Test
    void scalarsAreValuesToo() {
        assertNull(parse("null"));
        assertEquals("x", parse("\"x\""));
        assertEquals(new BigDecimal("42"), parse("42"));
        assertEquals(List.of(), parse("[]"));
    }

    @Test
    void keepsNumbersExact() {
        assertEquals(new BigDecimal("1.230"), parse("1.230"));
        assertEquals(new BigDecimal("0.1"), parse("0.1"));
        assertEquals(new BigDecimal("99999999.99"), parse("99999999.99"));
    }

    @Test
    void lastDuplicateNameWins() {
        assertEquals("b", ((Map<?, ?>) parse("{\"k\":\"a\",\"k\":\"b\"}")).get("k"));
    }

    @Test
    void decodesEscapesAndUtf8() {
        assertEquals("\"\\/\b\f\n\r\t", parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""));
        assertEquals("é😀", parse("\"\\u00e9\\ud83d\\ude00\""));
        assertEquals("café 😀 ü ✓", parse("\"café 😀 ü ✓\""));
        assertEquals("a\u0000b", parse("\"a\\u0000b\""));
        assertEquals("x é y\n", parse("\"x é y\\n\""));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", " ", "{", "}", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\" 1}", "{a:1}", "{'a':1}",
            "01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity",
            "tru", "nul", "True", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"a\tb\"", "\"a\nb\"",
            "{} {}", "[] x", "1 2", "\"a\"\"b\"", "/* c */ {}", "{\"a\":1}//"
    })
    void refusesMalformedJson(String json) {
        assertThrows(JsonParseException.class, () -> parse(json));
    }

    @Test
    void refusesInvalidUtf8() {
        byte[][] invalid = {
                {'"', (byte) 0xC3, '"'},                              // truncated sequence
                {'"', (byte) 0xC0, (byte) 0x80, '"'},                 // overlong NUL
                {'"', (byte) 0xE0, (byte) 0x80, (byte) 0x80, '"'},    // overlong
                {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'},    // encoded surrogate
                {'"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"'}, // above U+10FFFF
                {'"', (byte) 0xFF, '"'},
                {'"', (byte) 0x80, '"'},                              // lone continuation byte
                {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'},   // byte order mark
        };
        for (byte[] bytes : invalid) {
            assertThrows(JsonParseException.class, () -> parse(bytes), () -> Arrays.toString(bytes));
        }
    }

    @Test
    void limitsNesting() {
        int max = JsonParser.MAX_DEPTH;
        assertTrue(parse("[".repeat(max) + "]".repeat(max)) instanceof List);
        var error = assertThrows(JsonParseException.class,
                () -> parse("[".repeat(max + 1) + "]".repeat(max + 1)));
        assertTrue(error.getMessage().contains("nested deeper"), error.getMessage());
        assertThrows(JsonParseException.class, () -> parse("{\"a\":".repeat(100_000)));
    }

    @Test
    void limitsNumberLength() {
        String longest = "1" + "0".repeat(JsonParser.MAX_NUMBER_LENGTH - 1);
        assertEquals(new BigDecimal(longest), parse(longest));
        assertThrows(JsonParseException.class, () -> parse(longest + "0"));
    }

    @Test
    void clampsExponentsBeyondIntRange() {
        var huge = (BigDecimal) parse("1e99999999999");
        assertTrue(huge.compareTo(new BigDecimal("1e100")) > 0);
        var tiny = (BigDecimal) parse("-2.5E-99999999999");
        assertTrue(tiny.signum() < 0 && tiny.compareTo(new BigDecimal("-1e-100")) > 0);
        assertEquals(0, BigDecimal.ZERO.compareTo((BigDecimal) parse("0.0e99999999999")));
    }

    @Test
    void keepsOnlyTheAskedForMembersOfTheTopLevelObject() {
        byte[] json = "{\"a\":{\"x\":[1]},\"skip\":{\"y\":[\"\\u00e9\",2.5,true,null]},\"b\":\"\\t\"}".getBytes(UTF_8);
        assertEquals(Map.of("a", Map.of("x", List.of(BigDecimal.ONE)), "b", "\t"),
                JsonParser.parse(json, json.length, Set.of("a", "b")));
        byte[] array = "[{\"skip\":1}]".getBytes(UTF_8);
        assertEquals(List.of(Map.of("skip", BigDecimal.ONE)), JsonParser.parse(array, array.length, Set.of("a")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"skip\":[1,]}", "{\"skip\":\"\\q\"}", "{\"skip\":01}", "{\"skip\":{\"k\" 1}}",
            "{\"skip\":\"tab\tinside\"}", "{\"skip\":tru}", "{\"skip\":\"open}"})
    void checksSkippedMembersAllTheSame(String json) {
        byte[] bytes = json.getBytes(UTF_8);
        assertThrows(JsonParseException.class, () -> JsonParser.parse(bytes, bytes.length, Set.of("a")));
        byte[] badUtf8 = {'{', '"', 's', '"', ':', '"', (byte) 0xC3, '"', '}'};
        assertThrows(JsonParseException.class, () -> JsonParser.parse(badUtf8, badUtf8.length, Set.of("a")));
    }

    @Test
    void reportsWhereItFailed() {
        var error = assertThrows(JsonParseException.class, () -> parse("{\"a\":1,,}"));
        assertEquals(7, error.offset());
    }
}
