package bench.catalog.http;

import jakarta.ws.rs.BadRequestException;

/**
 * The {id} of a path: {@code [+-]?[0-9]+} in the signed 64-bit range ({@link AsciiInteger}),
 * anything else a 400. A plain {@code long} parameter would answer 404 for "abc" (as JAX-RS
 * says), read " " as 0 and take Arabic-Indic digits. JAX-RS finds {@link #valueOf(String)} by
 * itself, and lets its exception through unchanged.
 */
public record PathId(long value) {

    public static PathId valueOf(String text) {
        try {
            return new PathId(AsciiInteger.parse(text));
        } catch (NumberFormatException e) {
            throw new BadRequestException("id must be an integer");
        }
    }
}
