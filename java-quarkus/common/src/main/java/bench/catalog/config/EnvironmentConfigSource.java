package bench.catalog.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Hands the contract's environment to Quarkus as its own configuration: PORT and HOST to the HTTP
 * server, STOCK_URL to the REST client, DATABASE_URL and DB_POOL_SIZE to the datasource in the
 * form its driver wants (each application's subclass says which). Quarkus reads sources like this one at build time
 * too, where no DATABASE_URL is set: a value it cannot take is left out here, and reported in one
 * line by the application's {@code main} (Settings), never as a stack trace.
 */
public abstract class EnvironmentConfigSource implements ConfigSource {

    /** Above application.properties (250), below Quarkus' own environment variables (300). */
    private static final int ORDINAL = 275;

    private final Map<String, String> properties;

    /** {@code datasource}: the datasource's properties for this application's driver. */
    protected EnvironmentConfigSource(BiFunction<DatabaseUrl, Integer, Map<String, String>> datasource) {
        this.properties = Map.copyOf(collect(System.getenv(), datasource));
    }

    private static Map<String, String> collect(Map<String, String> env,
            BiFunction<DatabaseUrl, Integer, Map<String, String>> datasource) {
        Map<String, String> collected = new HashMap<>();
        try {
            Settings settings = Settings.from(env);
            collected.put("quarkus.http.host", settings.host());
            collected.put("quarkus.http.port", Integer.toString(settings.port()));
            collected.put("quarkus.rest-client.stock.url", settings.stockUrl());
            collected.putAll(datasource.apply(settings.database(), settings.poolSize()));
        } catch (InvalidSettingException e) {
            // Left to Quarkus' defaults; the application's main refuses to start with it.
        }
        return collected;
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
        return "the contract's environment (spec/API.md)";
    }

    @Override
    public int getOrdinal() {
        return ORDINAL;
    }
}
