package bench.catalog.data;

/** The addressed category or item does not exist. */
public final class RecordNotFoundException extends DomainException {

    private static final long serialVersionUID = 1L;

    public RecordNotFoundException(String kind, long id) {
        super(kind + " " + id + " not found");
    }
}
