package bench.catalog.data;

/** A write hit a unique constraint: the key (a category's code, an item's sku) is taken. */
public final class DuplicateKeyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String key;
    private final String value;

    public DuplicateKeyException(String key, String value) {
        super(key + " " + value + " already exists");
        this.key = key;
        this.value = value;
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }
}
