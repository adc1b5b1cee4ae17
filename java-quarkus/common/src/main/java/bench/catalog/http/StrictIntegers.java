package bench.catalog.http;

import java.util.regex.Pattern;

/**
 * spec/API.md's integers in paths and query parameters: {@code [+-]?[0-9]+} in the signed 64-bit
 * range, judged on the decoded text. Java's own parsers are more lenient ({@code Long.parseLong}
 * takes Arabic-Indic and fullwidth digits), so the text is matched first.
 */
public final class StrictIntegers {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    private StrictIntegers() {
    }

    public static long parse(String name, String value) {
        if (value != null && INTEGER.matcher(value).matches()) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                // out of range, reported below
            }
        }
        throw new InvalidParameterException(name + " must be an integer in the signed 64-bit range");
    }
}
