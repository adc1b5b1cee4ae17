package bench.catalog.data;

/** The addressed category or item does not exist. */
public final class RecordNotFoundException extends RuntimeException {

    public RecordNotFoundException(String kind, long id) {
        super(kind + " " + id + " not found", null, false, false);
    }
}
