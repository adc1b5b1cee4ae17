package bench.catalog.http;

import jakarta.ws.rs.BadRequestException;

/**
 * The {id} of a path: a base-10 integer in the signed 64-bit range, anything else a 400.
 * A plain {@code long} parameter would answer 404 for "abc" (as JAX-RS says) and read " " as 0.
 * JAX-RS finds {@link #valueOf(String)} by itself, and lets its exception through unchanged.
 */
public record PathId(long value) {

    public static PathId valueOf(String text) {
        try {
            return new PathId(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new BadRequestException("id must be an integer");
        }
    }
}
