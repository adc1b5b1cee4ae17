package bench.catalog.json;

import java.io.Serial;

/** The input is not one well-formed JSON value; the message says why and where. */
public final class JsonParseException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final int offset;

    public JsonParseException(String reason, int offset) {
        super(reason + " at byte " + offset, null, false, false);
        this.offset = offset;
    }

    public int offset() {
        return offset;
    }
}
