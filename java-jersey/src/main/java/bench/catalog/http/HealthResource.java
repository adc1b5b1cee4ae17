package bench.catalog.http;

import bench.catalog.data.Database;
import jakarta.persistence.PersistenceException;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.ServiceUnavailableException;
import jakarta.ws.rs.core.MediaType;

@Path("/health")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class HealthResource {

    public record Health(String status) {
    }

    private static final Health UP = new Health("UP");

    private final Database database;

    @Inject
    public HealthResource(Database database) {
        this.database = database;
    }

    @GET
    public Health health() {
        try {
            database.ping();
            return UP;
        } catch (PersistenceException e) {
            throw new ServiceUnavailableException("the database is unreachable", (Long) null, e);
        }
    }
}
