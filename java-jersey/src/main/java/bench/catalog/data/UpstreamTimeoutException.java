package bench.catalog.data;

/** No connection to the stock upstream, or no answer from it, within the client's timeouts. */
public final class UpstreamTimeoutException extends DomainException {

    private static final long serialVersionUID = 1L;

    public UpstreamTimeoutException(Throwable cause) {
        super("the stock service did not answer in time", cause);
    }
}
