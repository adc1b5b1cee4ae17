package bench.catalog.data;

/** No connection to the stock upstream, or no answer from it, within the client's timeouts. */
public final class UpstreamTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UpstreamTimeoutException(Throwable cause) {
        super("no answer in time: " + cause.getMessage(), cause, false, false);
    }
}
