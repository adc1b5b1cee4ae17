package bench.catalog.data;

/**
 * The stock upstream gave no usable answer: the connection was refused, reset or closed before a
 * whole answer, a status other than 200 and 404, or a 200 without a valid {@code quantity}.
 */
public final class UpstreamFailedException extends DomainException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    public UpstreamFailedException(String reason, Throwable cause) {
        super("the stock service gave no usable answer", cause);
        this.reason = reason;
    }

    /** What was wrong with the answer, for the log: the client is told only that it was unusable. */
    public String reason() {
        return reason;
    }
}
