package bench.catalog.data;

/** Another item has this sku (constraint item_sku_key). */
public final class SkuTakenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SkuTakenException(String sku) {
        super("sku " + sku + " already exists", null, false, false);
    }
}
