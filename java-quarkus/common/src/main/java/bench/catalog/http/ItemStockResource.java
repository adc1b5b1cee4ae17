package bench.catalog.http;

import bench.catalog.stock.StockService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestPath;

/**
 * {@code GET /items/{id}/stock}, the same in both applications: each one's {@code ItemResource}
 * extends this class. Inherited rather than a root resource of its own at
 * {@code /items/{id}/stock}, so that each {@code /items} path stays on one resource class and
 * Quarkus REST never has to choose between two classes that match a request (its 405s included).
 */
public abstract class ItemStockResource {

    private final StockService stock;

    protected ItemStockResource(StockService stock) {
        this.stock = stock;
    }

    /**
     * A Uni in both applications, so Quarkus REST runs it on the event loop, and the wait for the
     * upstream holds no thread (the outbound scenario keeps hundreds in flight).
     */
    @GET
    @Path("{id}/stock")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<StockView> stock(@RestPath long id) {
        return stock.stockOf(id);
    }
}
