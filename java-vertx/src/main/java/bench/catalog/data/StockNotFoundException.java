package bench.catalog.data;

/** The stock upstream keeps no record for the item (its 404). */
public final class StockNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StockNotFoundException(long itemId) {
        super("no stock record for item " + itemId, null, false, false);
    }
}
