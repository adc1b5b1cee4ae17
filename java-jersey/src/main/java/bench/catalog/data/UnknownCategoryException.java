package bench.catalog.data;

/** An item write names a category that does not exist. */
public final class UnknownCategoryException extends RuntimeException {

    public UnknownCategoryException(long categoryId) {
        super("category " + categoryId + " does not exist", null, false, false);
    }
}
