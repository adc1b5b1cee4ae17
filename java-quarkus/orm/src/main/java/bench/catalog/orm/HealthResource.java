package bench.catalog.orm;

import bench.catalog.http.HealthView;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /health}: 200 while the database answers, 503 (the error map) when it does not. */
@Path("/health")
public class HealthResource {

    private final DatabaseHealth database;

    public HealthResource(DatabaseHealth database) {
        this.database = database;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public HealthView health() {
        database.check();
        return HealthView.UP;
    }
}
