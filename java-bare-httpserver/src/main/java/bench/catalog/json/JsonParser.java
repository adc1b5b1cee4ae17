package bench.catalog.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A strict RFC 8259 parser over UTF-8 bytes. Objects become {@code Map<String, Object>} (the last
 * of duplicate names wins), arrays {@code List<Object>}, strings {@code String}, numbers
 * {@code BigDecimal} (exact, so that "more than 2 decimals" is judged by value), {@code true} and
 * {@code false} {@code Boolean}, and {@code null} Java's null.
 *
 * <p>Members of the top-level object that the caller does not ask for are checked but not built,
 * so an ignored 1 MiB property costs no memory beyond the request body itself.
 */
public final class JsonParser {

    /** Deeper nesting is refused rather than risking the stack of the (virtual) request thread. */
    public static final int MAX_DEPTH = 256;

    /** Longer numbers are refused, as Jackson does: BigDecimal parsing is quadratic in digits. */
    public static final int MAX_NUMBER_LENGTH = 1000;

    /** Exponents beyond int range are clamped here: the value stays far outside every valid range. */
    private static final int CLAMPED_EXPONENT = 999_999_999;

    private final byte[] in;
    private final int end;
    private final Set<String> members;
    private int pos;
    private int depth;
    /** False while checking a value that is thrown away: nothing is allocated for it. */
    private boolean building = true;

    private JsonParser(byte[] in, int length, Set<String> members) {
        this.in = in;
        this.end = length;
        this.members = members;
    }

    /** Parses exactly one JSON value, with optional whitespace around it, from {@code in[0..length)}. */
    public static Object parse(byte[] in, int length) {
        return parse(in, length, null);
    }

    /**
     * Like {@link #parse(byte[], int)}, but of a top-level object keeps only the named members
     * (all of them when {@code members} is null).
     */
    public static Object parse(byte[] in, int length, Set<String> members) {
        var parser = new JsonParser(in, length, members);
        parser.skipWhitespace();
        if (parser.pos == parser.end) {
            throw parser.error("no JSON value");
        }
        Object value = parser.value();
        parser.skipWhitespace();
        if (parser.pos != parser.end) {
            throw parser.error("unexpected data after the JSON value");
        }
        return value;
    }

    private Object value() {
        int b = peek();
        return switch (b) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            case -1 -> throw error("unexpected end of input");
            default -> {
                if (b == '-' || isDigit(b)) {
                    yield number();
                }
                throw error("unexpected character");
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        pos++;
        boolean topLevel = depth == 1;
        var map = building ? new HashMap<String, Object>() : null;
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return map;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a property name");
            }
            String name = string();
            skipWhitespace();
            if (peek() != ':') {
                throw error("expected ':'");
            }
            pos++;
            skipWhitespace();
            if (!building) {
                value();
            } else if (topLevel && members != null && !members.contains(name)) {
                building = false;
                value();
                building = true;
            } else {
                map.put(name, value());
            }
            skipWhitespace();
            int b = peek();
            pos++;
            if (b == '}') {
                depth--;
                return map;
            }
            if (b != ',') {
                throw error("expected ',' or '}'", pos - 1);
            }
        }
    }

    private List<Object> array() {
        enter();
        pos++;
        var list = building ? new ArrayList<>() : null;
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return list;
        }
        while (true) {
            skipWhitespace();
            Object element = value();
            if (building) {
                list.add(element);
            }
            skipWhitespace();
            int b = peek();
            pos++;
            if (b == ']') {
                depth--;
                return list;
            }
            if (b != ',') {
                throw error("expected ',' or ']'", pos - 1);
            }
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    private String string() {
        pos++;
        int start = pos;
        boolean ascii = true;
        // Fast path: no escapes, so the bytes between the quotes are the string's UTF-8 form.
        while (true) {
            int b = peek();
            if (b == '"') {
                String s = building ? new String(in, start, pos - start, ascii ? ISO_8859_1 : UTF_8) : null;
                pos++;
                return s;
            }
            if (b == '\\') {
                break;
            }
            if (b >= 0x80) {
                ascii = false;
                codePoint();
            } else {
                checkPlain(b);
                pos++;
            }
        }
        // With escapes: decode into a builder (nothing is kept for a skipped value).
        var sb = building ? new StringBuilder(pos - start + 16) : null;
        if (building) {
            sb.append(new String(in, start, pos - start, ascii ? ISO_8859_1 : UTF_8));
        }
        while (true) {
            int b = peek();
            if (b == '"') {
                pos++;
                return building ? sb.toString() : null;
            }
            if (b == '\\') {
                char c = escape();
                if (building) {
                    sb.append(c);
                }
            } else if (b >= 0x80) {
                int cp = codePoint();
                if (building) {
                    sb.appendCodePoint(cp);
                }
            } else {
                checkPlain(b);
                if (building) {
                    sb.append((char) b);
                }
                pos++;
            }
        }
    }

    private void checkPlain(int b) {
        if (b == -1) {
            throw error("unterminated string");
        }
        if (b < 0x20) {
            throw error("unescaped control character in a string");
        }
    }

    private char escape() {
        pos++;
        int b = peek();
        pos++;
        return switch (b) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> hex4();
            case -1 -> throw error("unterminated string", pos - 1);
            default -> throw error("invalid escape sequence", pos - 2);
        };
    }

    private char hex4() {
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(peek(), 16);
            if (digit < 0 || peek() >= 0x80) {
                throw error("invalid \\u escape");
            }
            value = value * 16 + digit;
            pos++;
        }
        return (char) value;
    }

    /** Decodes one UTF-8 sequence (RFC 3629: shortest form, no surrogates, at most U+10FFFF). */
    private int codePoint() {
        int b0 = in[pos] & 0xFF;
        int length;
        int lo = 0x80;
        int hi = 0xBF;
        int cp;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
            cp = b0 & 0x1F;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = 3;
            cp = b0 & 0x0F;
            if (b0 == 0xE0) {
                lo = 0xA0;
            } else if (b0 == 0xED) {
                hi = 0x9F;
            }
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            length = 4;
            cp = b0 & 0x07;
            if (b0 == 0xF0) {
                lo = 0x90;
            } else if (b0 == 0xF4) {
                hi = 0x8F;
            }
        } else {
            throw error("invalid UTF-8");
        }
        for (int i = 1; i < length; i++) {
            int b = pos + i < end ? in[pos + i] & 0xFF : -1;
            if (b < lo || b > hi) {
                throw error("invalid UTF-8");
            }
            lo = 0x80;
            hi = 0xBF;
            cp = (cp << 6) | (b & 0x3F);
        }
        pos += length;
        return cp;
    }

    private BigDecimal number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error("invalid number");
        }
        if (peek() == '.') {
            pos++;
            if (!isDigit(peek())) {
                throw error("invalid number");
            }
            digits();
        }
        int exponentAt = -1;
        if (peek() == 'e' || peek() == 'E') {
            exponentAt = pos - start;
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("invalid number");
            }
            digits();
        }
        if (pos - start > MAX_NUMBER_LENGTH) {
            throw error("number longer than " + MAX_NUMBER_LENGTH + " characters", start);
        }
        return building ? toBigDecimal(new String(in, start, pos - start, ISO_8859_1), exponentAt) : null;
    }

    private void digits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    /** {@code text} is a valid JSON number; only an exponent beyond int range can make BigDecimal refuse it. */
    static BigDecimal toBigDecimal(String text, int exponentAt) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException overflow) {
            var mantissa = new BigDecimal(text.substring(0, exponentAt));
            if (mantissa.signum() == 0) {
                return BigDecimal.ZERO;
            }
            boolean negativeExponent = text.charAt(exponentAt + 1) == '-';
            return mantissa.scaleByPowerOfTen(negativeExponent ? -CLAMPED_EXPONENT : CLAMPED_EXPONENT);
        }
    }

    private Object literal(String word, Object value) {
        for (int i = 0; i < word.length(); i++) {
            if (peek() != word.charAt(i)) {
                throw error("unexpected character");
            }
            pos++;
        }
        return value;
    }

    private void skipWhitespace() {
        while (pos < end) {
            byte b = in[pos];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return;
            }
            pos++;
        }
    }

    private int peek() {
        return pos < end ? in[pos] & 0xFF : -1;
    }

    private static boolean isDigit(int b) {
        return b >= '0' && b <= '9';
    }

    private JsonParseException error(String reason) {
        return error(reason, pos);
    }

    private JsonParseException error(String reason, int offset) {
        return new JsonParseException(reason, Math.min(offset, end));
    }
}
