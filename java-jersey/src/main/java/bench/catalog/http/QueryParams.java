package bench.catalog.http;

import bench.catalog.data.PageRequest;
import jakarta.ws.rs.BadRequestException;

/**
 * Query parameters arrive as strings and are parsed here: JAX-RS would answer 404 for a
 * malformed typed query parameter and treat an empty one as absent, where API.md wants 400.
 */
final class QueryParams {

    private static final int DEFAULT_SIZE = 20;
    private static final int MAX_SIZE = 100;

    private QueryParams() {
    }

    static PageRequest page(String page, String size) {
        long number = page == null ? 0 : parse(page, 0, Long.MAX_VALUE, "page must be an integer >= 0");
        long rows = size == null ? DEFAULT_SIZE
                : parse(size, 1, MAX_SIZE, "size must be an integer between 1 and " + MAX_SIZE);
        return new PageRequest(number, (int) rows);
    }

    static long categoryId(String value) {
        return parse(value, Long.MIN_VALUE, Long.MAX_VALUE, "categoryId must be an integer");
    }

    private static long parse(String value, long min, long max, String message) {
        try {
            long parsed = AsciiInteger.parse(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // not [+-]?[0-9]+ in the signed 64-bit range
        }
        throw new BadRequestException(message);
    }
}
