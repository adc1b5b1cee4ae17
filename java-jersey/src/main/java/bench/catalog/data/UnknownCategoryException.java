package bench.catalog.data;

/** An item write names a category that does not exist. */
public final class UnknownCategoryException extends DomainException {

    private static final long serialVersionUID = 1L;

    public UnknownCategoryException(long categoryId) {
        super("category " + categoryId + " does not exist");
    }
}
