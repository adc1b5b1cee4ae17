package bench.catalog.data;

/**
 * The stock upstream gave no usable answer: the connection was refused, reset or closed before a
 * whole answer, a status other than 200 and 404, or a 200 without a valid {@code quantity}. The
 * message says which, for the log; the client is told only that the answer was unusable.
 */
public final class UpstreamFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UpstreamFailedException(String reason, Throwable cause) {
        super(reason, cause, false, false);
    }
}
