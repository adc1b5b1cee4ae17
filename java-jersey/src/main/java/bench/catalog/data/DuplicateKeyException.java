package bench.catalog.data;

/** A write would give a second row the same unique key: a category's code or an item's sku. */
public final class DuplicateKeyException extends DomainException {

    private static final long serialVersionUID = 1L;

    public DuplicateKeyException(String key, String value) {
        super(key + " " + value + " already exists");
    }
}
