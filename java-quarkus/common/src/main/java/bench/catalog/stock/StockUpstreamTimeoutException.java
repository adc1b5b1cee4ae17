package bench.catalog.stock;

/** No connection to the stock upstream, or no answer from it, within its second: a 504. */
public final class StockUpstreamTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StockUpstreamTimeoutException() {
        super("the stock service did not answer in time", null, false, false);
    }
}
