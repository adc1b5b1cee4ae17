package bench.catalog.http;

/** A request that cannot be read: a malformed integer in the path or the query, or a body that is not JSON. */
final class BadRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BadRequestException(String detail) {
        super(detail, null, false, false);
    }
}
