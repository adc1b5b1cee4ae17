package bench.catalog.data;

/** No row of that resource has this id. */
public final class RecordNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RecordNotFoundException(String resource, long id) {
        super(resource + " " + id + " not found", null, false, false);
    }
}
