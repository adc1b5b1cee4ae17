package bench.catalog.stock;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The stock upstream, as a Quarkus REST client (config key {@code stock}: its URL, timeouts and
 * pool are in application.properties). It answers the raw response: what each status and body
 * means is {@link StockService}'s to decide, not the client's default exception mapper.
 */
@RegisterRestClient(configKey = "stock")
@Path("/stock")
public interface StockClient {

    @GET
    @Path("/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    Uni<Response> quantity(@PathParam("id") long id);
}
