package bench.catalog.data;

/** A category cannot be deleted while items still belong to it. */
public final class CategoryInUseException extends RuntimeException {

    public CategoryInUseException(long id) {
        super("category " + id + " still has items", null, false, false);
    }
}
