package bench.catalog.data;

/** Another category has this code (constraint category_code_key). */
public final class CodeTakenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CodeTakenException(String code) {
        super("code " + code + " already exists", null, false, false);
    }
}
