package bench.catalog.http;

import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.regex.Pattern;

/**
 * Every {@code long} path or query parameter as {@code spec/API.md} writes integers:
 * {@code [+-]?[0-9]+} in the signed 64-bit range. Jersey's own conversion is
 * {@link Long#valueOf(String)}, which also takes other Unicode decimal digits ({@code ١٢},
 * fullwidth {@code ５}), and which it skips for an empty value, so that {@code ?page=} would be
 * the default page instead of a 400. A value outside the grammar fails here, and Jersey hands
 * the error map a {@code ParamException} that names the parameter.
 */
public final class StrictIntegers implements ParamConverterProvider {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    private static final ParamConverter<Long> CONVERTER = new ParamConverter<>() {
        @Override
        public Long fromString(String value) {
            if (value == null || !INTEGER.matcher(value).matches()) {
                throw new NumberFormatException("not an integer: \"" + value + "\"");
            }
            // Still throws for a value outside the signed 64-bit range.
            return Long.valueOf(value);
        }

        @Override
        public String toString(Long value) {
            return value.toString();
        }
    };

    @Override
    // JAX-RS types a converter by the parameter's class; the one for Long serves long as well.
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        return rawType == long.class || rawType == Long.class ? (ParamConverter<T>) CONVERTER : null;
    }

    /** The value of {@code text}; {@link NumberFormatException} for anything outside the grammar or the range. */
    static long parse(String text) {
        return CONVERTER.fromString(text);
    }
}
