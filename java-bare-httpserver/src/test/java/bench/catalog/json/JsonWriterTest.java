package bench.catalog.json;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonWriterTest {

    @Test
    void placesCommasAndNests() {
        String json = new JsonWriter()
                .beginObject()
                .field("a", 1)
                .name("b").beginArray().value(1).beginObject().endObject().beginArray().endArray().value("x").endArray()
                .name("c").beginObject().field("d", (String) null).endObject()
                .endObject()
                .toString();
        assertEquals("{\"a\":1,\"b\":[1,{},[],\"x\"],\"c\":{\"d\":null}}", json);
    }

    @Test
    void escapesWhatJsonRequires() {
        String json = new JsonWriter().value("q\" b\\ n\n t\t \u0001 é 😀 /").toString();
        assertEquals("\"q\\\" b\\\\ n\\n t\\t \\u0001 é 😀 /\"", json);
    }

    @Test
    void writesDecimalsPlainAndInstantsWithMicroseconds() {
        String json = new JsonWriter().beginArray()
                .value(new BigDecimal("600.55"))
                .value(new BigDecimal("1E+3"))
                .value(Instant.parse("2026-01-01T03:25:45Z"))
                .value(Instant.parse("2026-11-21T19:49:30.706470Z"))
                .endArray().toString();
        assertEquals("[600.55,1000,\"2026-01-01T03:25:45.000000Z\",\"2026-11-21T19:49:30.706470Z\"]", json);
    }

    @Test
    void roundTripsThroughTheParser() {
        String text = "tab\t nul\u0000 \"quoted\" \\ 😀";
        byte[] bytes = new JsonWriter().beginObject().field("s", text).endObject().toBytes();
        var parsed = (Map<?, ?>) JsonParser.parse(bytes, bytes.length);
        assertEquals(text, parsed.get("s"));
    }
}
