package bench.catalog.data;

/** A category cannot be deleted while items still belong to it. */
public final class CategoryInUseException extends DomainException {

    private static final long serialVersionUID = 1L;

    public CategoryInUseException(long id) {
        super("category " + id + " still has items");
    }
}
