package bench.catalog.stock;

/** The stock upstream gave no usable answer: a 502. Its message is for the log, never the client. */
public final class StockUpstreamException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StockUpstreamException(String message) {
        super(message, null, false, false);
    }
}
