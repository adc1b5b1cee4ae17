package bench.catalog.http;

import java.io.IOException;

/**
 * A body whose read failed part-way: the client closed or reset its connection, or sent nothing
 * more for Quarkus REST's read timeout. The client's doing, not the server's nor the database's: a
 * 400 on one log line (README.md, "Limits").
 */
public final class UnreadBodyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnreadBodyException(IOException cause) {
        super("the request body could not be read", cause);
    }
}
