package bench.catalog.validation;

import bench.catalog.error.FieldError;
import bench.catalog.error.ValidationException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the properties of a parsed JSON body, collecting one error per invalid field; unknown
 * properties are ignored. Each getter returns a placeholder for an invalid field, so call
 * {@link #validate()} before using the values.
 */
public final class Fields {

    private final Map<?, ?> body;
    private final List<FieldError> errors = new ArrayList<>(0);

    private Fields(Map<?, ?> body) {
        this.body = body;
    }

    public static Fields of(Object json) {
        if (json instanceof Map<?, ?> body) {
            return new Fields(body);
        }
        throw new ValidationException(List.of(new FieldError("", "the request body must be a JSON object")));
    }

    /** A string that must be present, not null and not blank. */
    public String requiredString(String name, int maxLength) {
        Object value = body.get(name);
        if (value == null) {
            return reject(name, "is required");
        }
        if (!(value instanceof String s)) {
            return reject(name, "must be a string");
        }
        if (isBlank(s)) {
            return reject(name, "must not be blank");
        }
        return checkText(name, s, maxLength);
    }

    /** A string that may be absent or null (then null); blank is allowed. */
    public String optionalString(String name, int maxLength) {
        Object value = body.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            return reject(name, "must be a string");
        }
        return checkText(name, s, maxLength);
    }

    /** A number between min and max with at most maxScale decimals, all judged by value. */
    public BigDecimal decimal(String name, BigDecimal min, BigDecimal max, int maxScale) {
        if (body.get(name) == null) {
            return reject(name, "is required");
        }
        if (!(body.get(name) instanceof BigDecimal value)) {
            return reject(name, "must be a number");
        }
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            return reject(name, "must be between " + min.toPlainString() + " and " + max.toPlainString());
        }
        // Stripping is cheap for any parsed number (at most 1000 digits), unlike rescaling 1e-999999999.
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.scale() > maxScale) {
            return reject(name, "must have at most " + maxScale + " decimal places");
        }
        return stripped.setScale(maxScale, RoundingMode.UNNECESSARY);
    }

    /** A number with no fractional part (3.0 counts as 3) between min and max. */
    public long integer(String name, long min, long max) {
        if (body.get(name) == null) {
            reject(name, "is required");
            return 0;
        }
        if (!(body.get(name) instanceof BigDecimal value)) {
            reject(name, "must be an integer");
            return 0;
        }
        String range = min == Long.MIN_VALUE && max == Long.MAX_VALUE ? "a 64-bit integer"
                : max == Long.MAX_VALUE ? "an integer of at least " + min
                : "an integer between " + min + " and " + max;
        // Range first: it is cheap even for 1e999999999, and bounds the exact conversion below.
        if (value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
            reject(name, "must be " + range);
            return 0;
        }
        try {
            return value.longValueExact();
        } catch (ArithmeticException fraction) {
            reject(name, "must be an integer");
            return 0;
        }
    }

    /** Throws the collected errors, if any. */
    public void validate() {
        if (!errors.isEmpty()) {
            throw new ValidationException(errors);
        }
    }

    /** Lengths in code points as PostgreSQL counts them; U+0000 and lone surrogates cannot be stored. */
    private String checkText(String name, String s, int maxLength) {
        if (s.length() > maxLength && s.codePointCount(0, s.length()) > maxLength) {
            return reject(name, "must be at most " + maxLength + " characters long");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\0') {
                return reject(name, "must not contain the character U+0000");
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return reject(name, "must not contain unpaired surrogates");
            }
        }
        return s;
    }

    /** Blank: empty or only spaces, tabs, CR and LF. */
    static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return false;
            }
        }
        return true;
    }

    private <T> T reject(String name, String message) {
        errors.add(new FieldError(name, message));
        return null;
    }
}
