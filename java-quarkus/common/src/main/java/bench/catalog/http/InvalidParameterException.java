package bench.catalog.http;

/** A path id or query parameter that breaks spec/API.md's integer grammar or range: a 400. */
public final class InvalidParameterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidParameterException(String detail) {
        super(detail);
    }
}
