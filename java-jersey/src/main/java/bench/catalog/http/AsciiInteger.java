package bench.catalog.http;

/**
 * The integer grammar of path ids and integer query parameters ({@code spec/API.md}):
 * {@code [+-]?[0-9]+} in the signed 64-bit range. {@link Long#parseLong} alone would also take
 * any other Unicode decimal digit ({@code ١٢}, fullwidth {@code ５}), since it reads digits with
 * {@link Character#digit(char, int)}.
 */
final class AsciiInteger {

    private AsciiInteger() {
    }

    /** The value of {@code text}; {@link NumberFormatException} for anything outside the grammar or the range. */
    static long parse(String text) {
        int start = !text.isEmpty() && (text.charAt(0) == '+' || text.charAt(0) == '-') ? 1 : 0;
        if (start == text.length()) {
            throw new NumberFormatException("no digits: \"" + text + "\"");
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new NumberFormatException("not an ASCII digit at index " + i + ": \"" + text + "\"");
            }
        }
        return Long.parseLong(text);
    }
}
