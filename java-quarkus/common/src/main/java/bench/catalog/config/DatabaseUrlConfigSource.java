package bench.catalog.config;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * DATABASE_URL taken apart as {@code database-url.*}: the one variable of the contract that an
 * expression in the properties cannot hand to Quarkus, since each driver wants a URL of its own
 * form (JDBC's, the Vert.x client's) and the credentials apart. The properties say where each part
 * goes (the credentials in common's META-INF/microprofile-config.properties, the URL in each
 * application's application.properties). Registered in META-INF/services, so Quarkus reads it at
 * build time too, where no DATABASE_URL is set: a value it cannot take is left out here, and
 * refused in one line by {@code bench.catalog.Main} before Quarkus starts.
 */
public final class DatabaseUrlConfigSource implements ConfigSource {

    private final Map<String, String> properties;

    public DatabaseUrlConfigSource() {
        this(System.getenv("DATABASE_URL"));
    }

    DatabaseUrlConfigSource(String url) {
        this.properties = properties(url);
    }

    private static Map<String, String> properties(String url) {
        if (url == null || url.isBlank()) {
            return Map.of();
        }
        DatabaseUrl database;
        try {
            database = DatabaseUrl.parse(url);
        } catch (InvalidSettingException e) {
            return Map.of();
        }
        return Map.of(
                "database-url.jdbc", database.jdbcUrl(),
                "database-url.reactive", database.reactiveUrl(),
                "database-url.username", database.user(),
                "database-url.password", database.password());
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return properties.get(propertyName);
    }

    @Override
    public String getName() {
        return "DATABASE_URL (spec/API.md, \"Environment\")";
    }
}
