package bench.catalog.data;

/** A category delete failed because items still belong to it. */
public final class CategoryInUseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CategoryInUseException(long id) {
        super("category " + id + " still has items");
    }
}
