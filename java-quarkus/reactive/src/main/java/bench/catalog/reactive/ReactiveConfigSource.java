package bench.catalog.reactive;

import bench.catalog.config.DatabaseUrl;
import bench.catalog.config.EnvironmentConfigSource;
import java.util.Map;

/** DATABASE_URL as the Vert.x PostgreSQL client takes it; DB_POOL_SIZE as its pool's maximum. */
public final class ReactiveConfigSource extends EnvironmentConfigSource {

    public ReactiveConfigSource() {
        super(ReactiveConfigSource::datasource);
    }

    private static Map<String, String> datasource(DatabaseUrl url, int poolSize) {
        return Map.of(
                "quarkus.datasource.reactive.url", url.reactiveUrl(),
                "quarkus.datasource.username", url.user(),
                "quarkus.datasource.password", url.password(),
                "quarkus.datasource.reactive.max-size", Integer.toString(poolSize));
    }
}
