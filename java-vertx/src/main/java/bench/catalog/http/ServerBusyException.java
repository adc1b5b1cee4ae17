package bench.catalog.http;

/** A request refused because the server holds as many request bodies as it may at once. */
final class ServerBusyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ServerBusyException() {
        super("the server is busy; try again later", null, false, false);
    }
}
