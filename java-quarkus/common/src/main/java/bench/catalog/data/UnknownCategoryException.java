package bench.catalog.data;

/** An item write named a category that does not exist (its foreign key failed). */
public final class UnknownCategoryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long categoryId;

    public UnknownCategoryException(long categoryId) {
        super("category " + categoryId + " does not exist");
        this.categoryId = categoryId;
    }

    public long categoryId() {
        return categoryId;
    }
}
