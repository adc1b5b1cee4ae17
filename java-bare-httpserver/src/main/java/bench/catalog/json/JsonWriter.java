package bench.catalog.json;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.Arrays;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Writes JSON text into a buffer, placing the commas itself. */
public final class JsonWriter {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** RFC 3339 in UTC with microseconds, PostgreSQL's precision: 2026-01-01T00:00:42.000000Z. */
    private static final DateTimeFormatter INSTANT = new DateTimeFormatterBuilder().appendInstant(6).toFormatter();

    private final StringBuilder out;
    /** first[d]: nothing written yet in the object or array open at depth d. */
    private boolean[] first = new boolean[8];
    private int depth;
    private boolean afterName;

    public JsonWriter() {
        this(256);
    }

    public JsonWriter(int capacity) {
        out = new StringBuilder(capacity);
    }

    public JsonWriter beginObject() {
        return open('{');
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        return open('[');
    }

    public JsonWriter endArray() {
        return close(']');
    }

    public JsonWriter name(String name) {
        separate();
        quote(name);
        out.append(':');
        afterName = true;
        return this;
    }

    public JsonWriter value(String value) {
        separate();
        if (value == null) {
            out.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    public JsonWriter value(long value) {
        separate();
        out.append(value);
        return this;
    }

    /** Written in plain notation ({@code 600.55}, never {@code 6.0055E+2}). */
    public JsonWriter value(BigDecimal value) {
        separate();
        out.append(value.toPlainString());
        return this;
    }

    public JsonWriter value(Instant value) {
        separate();
        out.append('"');
        INSTANT.formatTo(value, out);
        out.append('"');
        return this;
    }

    public JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, BigDecimal value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, Instant value) {
        return name(name).value(value);
    }

    public byte[] toBytes() {
        return out.toString().getBytes(UTF_8);
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private JsonWriter open(char bracket) {
        separate();
        out.append(bracket);
        if (++depth == first.length) {
            first = Arrays.copyOf(first, depth * 2);
        }
        first[depth] = true;
        return this;
    }

    private JsonWriter close(char bracket) {
        out.append(bracket);
        depth--;
        return this;
    }

    private void separate() {
        if (afterName) {
            afterName = false;
        } else if (depth > 0) {
            if (!first[depth]) {
                out.append(',');
            }
            first[depth] = false;
        }
    }

    private void quote(String s) {
        out.append('"');
        int plainFrom = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, plainFrom, i);
            plainFrom = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        out.append(s, plainFrom, s.length()).append('"');
    }
}
