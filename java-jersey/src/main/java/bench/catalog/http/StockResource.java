package bench.catalog.http;

import bench.catalog.data.StockClient;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

/** {@code /items/{id}/stock}: the stock upstream's quantity; nothing is read from the database. */
@Path("/items/{id}/stock")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class StockResource {

    private final StockClient stock;

    @Inject
    public StockResource(StockClient stock) {
        this.stock = stock;
    }

    /**
     * Suspended until the upstream answers, so that no Grizzly worker waits for it: the workers are
     * sized for JDBC (4 per pooled connection), and calls held for up to the 1 s timeout each
     * would leave none for the other endpoints. A failure resumes as the domain error itself,
     * which the error map answers; a {@code CompletionStage} result would reach it wrapped.
     */
    @GET
    public void get(@PathParam("id") long id, @Suspended AsyncResponse response) {
        stock.quantity(id).whenComplete((quantity, failure) -> {
            if (failure == null) {
                response.resume(new StockView(id, quantity));
            } else {
                response.resume(failure);
            }
        });
    }
}
