package bench.catalog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SettingsTest {

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

    @ParameterizedTest
    @ValueSource(strings = {"", "localhost:5432/db", "mysql://u:p@h:3306/db", "postgres://h:5432/db",
        "postgres://u:p@h:5432", "postgres://u:p@h:5432/", "postgres://u:p@h:port/db", "postgres://u:p@h/a/b"})
    void aMalformedDatabaseUrlIsOneLineWithoutTheValue(String value) {
        InvalidSettingException error = assertThrows(InvalidSettingException.class,
                () -> Settings.from(Map.of("DATABASE_URL", value)));
        assertTrue(error.getMessage().startsWith("DATABASE_URL"), error.getMessage());
        assertFalse(error.getMessage().contains("\n"));
        assertFalse(!value.isEmpty() && error.getMessage().contains(value), "echoes the value, password and all");
    }

    @Test
    void theDefaultsAreTheContracts() {
        Settings settings = Settings.from(Map.of("DATABASE_URL", URL));
        assertEquals("127.0.0.1", settings.host());
        assertEquals(8080, settings.port());
        assertEquals(10, settings.poolSize());
        assertEquals("http://127.0.0.1:8099", settings.stockUrl());
        assertEquals("https://avatar.example.com", settings.avatarBaseUrl());
        assertEquals(21, settings.avatarCount());
        assertFalse(settings.logRequests());
    }

    @Test
    void oneTrailingSlashOfTheStockUrlIsDropped() {
        assertEquals("http://127.0.0.1:9000", Settings.stockUrl("http://127.0.0.1:9000/"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:8099", "https://stock:8099", "http://", "http://stock:8099/path", "ftp://stock"})
    void aStockUrlThatIsNotAnHttpUrlOfAHostIsRefused(String value) {
        assertThrows(InvalidSettingException.class, () -> Settings.stockUrl(value));
    }

    @Test
    void aPoolSizeThatIsNotAPositiveIntegerIsRefused() {
        assertThrows(InvalidSettingException.class,
                () -> Settings.from(Map.of("DATABASE_URL", URL, "DB_POOL_SIZE", "ten")));
        assertThrows(InvalidSettingException.class,
                () -> Settings.from(Map.of("DATABASE_URL", URL, "DB_POOL_SIZE", "0")));
    }
}
