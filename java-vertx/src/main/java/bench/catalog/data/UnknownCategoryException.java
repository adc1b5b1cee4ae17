package bench.catalog.data;

/** An item write names a category that does not exist (constraint item_category_id_fkey). */
public final class UnknownCategoryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnknownCategoryException(long categoryId) {
        super("category " + categoryId + " does not exist", null, false, false);
    }
}
