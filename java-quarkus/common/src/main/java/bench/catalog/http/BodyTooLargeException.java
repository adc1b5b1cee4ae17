package bench.catalog.http;

/** A body over {@link BodyLimits#MAX_BODY_BYTES}: a 413. */
public final class BodyTooLargeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BodyTooLargeException() {
        super("the body is larger than 1 MiB");
    }
}
