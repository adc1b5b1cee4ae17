package bench.catalog.data;

/** No row of that entity has that id. */
public final class RecordNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String entity;
    private final long id;

    public RecordNotFoundException(String entity, long id) {
        super(entity + " " + id + " not found");
        this.entity = entity;
        this.id = id;
    }

    public String entity() {
        return entity;
    }

    public long id() {
        return id;
    }
}
