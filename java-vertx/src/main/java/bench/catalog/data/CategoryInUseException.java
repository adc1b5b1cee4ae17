package bench.catalog.data;

/** A category that items still belong to cannot be deleted (constraint item_category_id_fkey). */
public final class CategoryInUseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CategoryInUseException(long id) {
        super("category " + id + " still has items", null, false, false);
    }
}
