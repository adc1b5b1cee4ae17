package bench.catalog.stock;

/** The stock upstream keeps no record of the item (it answered 404). */
public final class StockNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StockNotFoundException(long itemId) {
        super("no stock record for item " + itemId);
    }
}
