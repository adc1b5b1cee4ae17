package bench.catalog.http;

/** Serves one method of one route. Whatever it throws becomes problem JSON in {@link Router}. */
@FunctionalInterface
public interface Handler {
    void handle(Exchange exchange) throws Exception;
}
