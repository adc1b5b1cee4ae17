package bench.catalog.reactive;

import bench.catalog.data.DatabaseUnavailableException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code SELECT 1} on a connection of the pool Hibernate Reactive uses: the contract's health check. */
@ApplicationScoped
public class DatabaseHealth {

    private final Pool pool;

    public DatabaseHealth(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> check() {
        return pool.query("SELECT 1").execute()
                .onFailure().transform(DatabaseUnavailableException::new)
                .replaceWithVoid();
    }
}
