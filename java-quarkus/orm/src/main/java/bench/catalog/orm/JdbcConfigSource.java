package bench.catalog.orm;

import bench.catalog.config.DatabaseUrl;
import bench.catalog.config.EnvironmentConfigSource;
import java.util.Map;

/** DATABASE_URL as Agroal and the JDBC driver take it; DB_POOL_SIZE as the pool's maximum. */
public final class JdbcConfigSource extends EnvironmentConfigSource {

    public JdbcConfigSource() {
        super(JdbcConfigSource::datasource);
    }

    private static Map<String, String> datasource(DatabaseUrl url, int poolSize) {
        return Map.of(
                "quarkus.datasource.jdbc.url", url.jdbcUrl(),
                "quarkus.datasource.username", url.user(),
                "quarkus.datasource.password", url.password(),
                "quarkus.datasource.jdbc.max-size", Integer.toString(poolSize));
    }
}
