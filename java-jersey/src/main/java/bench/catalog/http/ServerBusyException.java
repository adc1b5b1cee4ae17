package bench.catalog.http;

import jakarta.ws.rs.ServiceUnavailableException;

/** A body refused unread: the server already holds as many request body bytes as it may at once. */
public final class ServerBusyException extends ServiceUnavailableException {

    private static final long serialVersionUID = 1L;

    ServerBusyException() {
        super("the server is busy, try again later");
    }
}
