package bench.catalog.http;

/** A body that is not JSON at all (empty, cut short, trailing data): a 400. */
public final class MalformedJsonException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedJsonException(String detail) {
        super(detail);
    }
}
