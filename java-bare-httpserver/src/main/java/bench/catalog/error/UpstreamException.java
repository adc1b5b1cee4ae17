package bench.catalog.error;

import java.io.Serial;

/**
 * What the stock upstream answered, or did not, when it was no quantity. Thrown by the stock
 * client, which knows the upstream's answers; {@link Problems} decides the status.
 */
public final class UpstreamException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** The upstream keeps no stock record for the item (its 404). */
        NO_RECORD,
        /** Refused, reset or closed before a whole answer; another status; a 200 without a valid quantity. */
        BAD_ANSWER,
        /** No connection, or no answer, within the client's timeouts. */
        TIMEOUT
    }

    private final Kind kind;

    /**
     * {@code message} says what the upstream did: the detail of a {@link Kind#NO_RECORD} answer,
     * and for the other kinds a line of the log that the client never sees.
     */
    public UpstreamException(Kind kind, String message, Throwable cause) {
        super(message, cause, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
