package bench.catalog.http;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;

/**
 * {@code ?page=&size=} (spec/API.md, "Paging"): page from 0, size 1 to 100, defaults 0 and 20.
 */
public record PageRequest(long page, int size) {

    private static final int DEFAULT_SIZE = 20;
    private static final int MAX_SIZE = 100;

    /**
     * From the request's query string. Read from UriInfo rather than bound with {@code @RestQuery}:
     * Quarkus REST binds {@code ?page=} as if the parameter were absent, where the contract
     * answers 400 (an empty value is not an integer).
     */
    public static PageRequest from(UriInfo uri) {
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        return of(query.getFirst("page"), query.getFirst("size"));
    }

    public static PageRequest of(String page, String size) {
        long number = page == null ? 0 : StrictIntegers.parse("page", page);
        if (number < 0) {
            throw new InvalidParameterException("page must be an integer of 0 or more");
        }
        long length = size == null ? DEFAULT_SIZE : StrictIntegers.parse("size", size);
        if (length < 1 || length > MAX_SIZE) {
            throw new InvalidParameterException("size must be an integer between 1 and " + MAX_SIZE);
        }
        return new PageRequest(number, (int) length);
    }

    /**
     * The first row of this page, or -1 when it lies past {@code total} rows (also when
     * {@code page × size} does not fit in 64 bits): such a page is empty, and is not asked for.
     */
    public int offsetWithin(long total) {
        long offset;
        try {
            offset = Math.multiplyExact(page, (long) size);
        } catch (ArithmeticException e) {
            return -1;
        }
        return offset < total ? (int) offset : -1;
    }
}
