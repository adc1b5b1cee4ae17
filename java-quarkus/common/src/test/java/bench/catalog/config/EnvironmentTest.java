package bench.catalog.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract's environment: its refusals (Environment), DATABASE_URL's parts
 * (DatabaseUrlConfigSource), and where each variable lands with its default
 * (META-INF/microprofile-config.properties, read as Quarkus reads it, expressions and all).
 */
class EnvironmentTest {

    private static final String URL = "postgres://bench:s%40cret+1@db.local:6543/catalog";

    @Test
    void databaseUrlBecomesTheDriversForms() {
        DatabaseUrl url = DatabaseUrl.parse(URL);
        assertEquals(new DatabaseUrl("db.local", 6543, "catalog", "bench", "s@cret+1"), url);
        assertEquals("jdbc:postgresql://db.local:6543/catalog", url.jdbcUrl());
        assertEquals("postgresql://db.local:6543/catalog", url.reactiveUrl());
    }

    @Test
    void thePortDefaultsToPostgresOwn() {
        assertEquals(5432, DatabaseUrl.parse("postgres://u:p@localhost/db").port());
    }

    @Test
    void theConfigSourceGivesTheDatasourceItsParts() {
        DatabaseUrlConfigSource source = new DatabaseUrlConfigSource(URL);
        assertEquals("jdbc:postgresql://db.local:6543/catalog", source.getValue("database-url.jdbc"));
        assertEquals("postgresql://db.local:6543/catalog", source.getValue("database-url.reactive"));
        assertEquals("bench", source.getValue("database-url.username"));
        assertEquals("s@cret+1", source.getValue("database-url.password"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "postgres://h:5432/db", "mysql://u:p@h:3306/db"})
    void theConfigSourceLeavesOutWhatItCannotTake(String value) {
        // No datasource then: Main refuses such a DATABASE_URL, in one line, before Quarkus starts.
        assertTrue(new DatabaseUrlConfigSource(value).getPropertyNames().isEmpty());
        assertNull(new DatabaseUrlConfigSource(null).getValue("database-url.jdbc"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost:5432/db", "mysql://u:p@h:3306/db", "postgres://h:5432/db",
        "postgres://u:p@h:5432", "postgres://u:p@h:5432/", "postgres://u:p@h:port/db", "postgres://u:p@h/a/b"})
    void aMissingOrMalformedDatabaseUrlIsOneLineWithoutTheValue(String value) {
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> Environment.check(Map.of("DATABASE_URL", value)));
        assertTrue(error.getMessage().startsWith("DATABASE_URL"), error.getMessage());
        assertFalse(error.getMessage().contains("\n"));
        assertFalse(!value.isEmpty() && error.getMessage().contains(value), "echoes the value, password and all");
        assertThrows(InvalidSettingException.class, () -> Environment.check(Map.of()));
    }

    @Test
    void theDatabaseUrlAloneIsRequired() {
        assertDoesNotThrow(() -> Environment.check(Map.of("DATABASE_URL", URL)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"HOST", "PORT", "DB_POOL_SIZE", "AVATAR_BASE_URL", "AVATAR_COUNT", "LOG_REQUESTS",
        "STOCK_URL"})
    void aVariableSetToNothingIsRefusedByName(String name) {
        for (String empty : new String[] {"", " "}) {
            InvalidSettingException error = assertThrows(InvalidSettingException.class,
                    () -> Environment.check(Map.of("DATABASE_URL", URL, name, empty)));
            assertTrue(error.getMessage().startsWith(name + " is set but empty"), error.getMessage());
        }
    }

    @Test
    void oneTrailingSlashOfTheStockUrlIsTolerated() {
        assertDoesNotThrow(() -> Environment.stockUrl("http://127.0.0.1:9000/"));
        assertDoesNotThrow(() -> Environment.check(Map.of("DATABASE_URL", URL, "STOCK_URL", "http://stock:8099")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:8099", "https://stock:8099", "http://", "http://stock:8099/path",
        "http://stock:8099//", "ftp://stock"})
    void aStockUrlThatIsNotAnHttpUrlOfAHostIsRefused(String value) {
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> Environment.check(Map.of("DATABASE_URL", URL, "STOCK_URL", value)));
        assertTrue(error.getMessage().startsWith("STOCK_URL"), error.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PORT=65536", "PORT=http", "DB_POOL_SIZE=ten", "DB_POOL_SIZE=0", "AVATAR_COUNT=0",
        "AVATAR_COUNT=-1"})
    void anIntegerOutOfItsRangeIsRefusedByName(String setting) {
        String[] parts = setting.split("=");
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> Environment.check(Map.of("DATABASE_URL", URL, parts[0], parts[1])));
        assertTrue(error.getMessage().startsWith(parts[0] + " must be an integer"), error.getMessage());
    }

    @Test
    void theDefaultsAreTheContracts() throws IOException {
        Config config = configWith(Map.of());
        assertEquals("127.0.0.1", config.getValue("quarkus.http.host", String.class));
        assertEquals(8080, config.getValue("quarkus.http.port", Integer.class).intValue());
        assertEquals("http://127.0.0.1:8099", config.getValue("quarkus.rest-client.stock.url", String.class));
        assertEquals(10, config.getValue("catalog.pool-size", Integer.class).intValue());
        assertEquals("https://avatar.example.com", config.getValue("catalog.avatar.base-url", String.class));
        assertEquals(21, config.getValue("catalog.avatar.count", Integer.class).intValue());
        assertFalse(config.getValue("quarkus.http.access-log.enabled", Boolean.class));
        assertTrue(config.getOptionalValue("quarkus.datasource.username", String.class).isEmpty(),
                "no credentials before DATABASE_URL gives them");
    }

    @Test
    void eachVariableReachesItsKey() throws IOException {
        Map<String, String> environment = new HashMap<>();
        environment.put("HOST", "0.0.0.0");
        environment.put("PORT", "9000");
        environment.put("STOCK_URL", "http://stock:8099/");
        environment.put("DB_POOL_SIZE", "4");
        environment.put("AVATAR_BASE_URL", "https://pictures.example.org");
        environment.put("AVATAR_COUNT", "3");
        environment.put("LOG_REQUESTS", "true");
        environment.putAll(new DatabaseUrlConfigSource(URL).getProperties());
        Config config = configWith(environment);
        assertEquals("0.0.0.0", config.getValue("quarkus.http.host", String.class));
        assertEquals(9000, config.getValue("quarkus.http.port", Integer.class).intValue());
        assertEquals("http://stock:8099/", config.getValue("quarkus.rest-client.stock.url", String.class));
        assertEquals(4, config.getValue("catalog.pool-size", Integer.class).intValue());
        assertEquals("https://pictures.example.org", config.getValue("catalog.avatar.base-url", String.class));
        assertEquals(3, config.getValue("catalog.avatar.count", Integer.class).intValue());
        assertTrue(config.getValue("quarkus.http.access-log.enabled", Boolean.class));
        assertEquals("bench", config.getValue("quarkus.datasource.username", String.class));
        assertEquals("s@cret+1", config.getValue("quarkus.datasource.password", String.class));
    }

    /** Common's properties over the given environment, with SmallRye's expressions, as Quarkus reads them. */
    private static Config configWith(Map<String, String> environment) throws IOException {
        Properties file = new Properties();
        try (InputStream in = EnvironmentTest.class.getResourceAsStream("/META-INF/microprofile-config.properties")) {
            file.load(in);
        }
        Map<String, String> properties = new HashMap<>();
        for (String name : file.stringPropertyNames()) {
            properties.put(name, file.getProperty(name));
        }
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(properties, "META-INF/microprofile-config.properties", 100),
                        new PropertiesConfigSource(environment, "environment", 300))
                .build();
    }
}
