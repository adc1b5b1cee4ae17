package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void readsThePostgresUrlAndTheDefaults() {
        Config config = Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://bench:s%40cret@db.local:6543/catalog"));

        assertEquals("db.local", config.database().getHost());
        assertEquals(6543, config.database().getPort());
        assertEquals("catalog", config.database().getDatabase());
        assertEquals("bench", config.database().getUser());
        assertEquals("s@cret", config.database().getPassword());
        assertEquals("127.0.0.1", config.host());
        assertEquals(8080, config.port());
        assertEquals(10, config.poolSize());
        assertEquals("https://avatar.example.com", config.avatarBaseUrl());
        assertEquals(21, config.avatarCount());
        assertEquals(URI.create("http://127.0.0.1:8099"), config.stockUrl());
        assertFalse(config.logRequests());
    }

    @Test
    void theStockUrlIsAHostAndPortWithAtMostATrailingSlash() {
        assertEquals(URI.create("http://stock.internal:9000"), Config.fromEnvironment(
                Map.of("DATABASE_URL", "postgres://u:p@h:5432/d", "STOCK_URL", "http://stock.internal:9000/")).stockUrl());
        assertEquals(URI.create("http://stock.internal:80"), Config.fromEnvironment(
                Map.of("DATABASE_URL", "postgres://u:p@h:5432/d", "STOCK_URL", "http://stock.internal")).stockUrl());
        for (String invalid : new String[] {"127.0.0.1:8099", "https://h:1", "http://h:1/stock", "http:///", "http://u@h:1",
                "http://h:1?q=1", "not a url"}) {
            var error = assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(
                    Map.of("DATABASE_URL", "postgres://u:p@h:5432/d", "STOCK_URL", invalid)), invalid);
            assertTrue(error.getMessage().contains("STOCK_URL"), error.getMessage());
        }
    }

    @Test
    void readsEveryVariable() {
        Config config = Config.fromEnvironment(Map.of(
                "DATABASE_URL", "postgres://u:p@h:5432/d",
                "HOST", "0.0.0.0",
                "PORT", "9090",
                "DB_POOL_SIZE", "4",
                "AVATAR_BASE_URL", "http://pictures.test",
                "AVATAR_COUNT", "3",
                "LOG_REQUESTS", "true"));

        assertEquals("0.0.0.0", config.host());
        assertEquals(9090, config.port());
        assertEquals(4, config.poolSize());
        assertEquals("http://pictures.test", config.avatarBaseUrl());
        assertEquals(3, config.avatarCount());
        assertTrue(config.logRequests());
    }

    @Test
    void aMissingDatabaseUrlIsNamed() {
        var error = assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of()));
        assertTrue(error.getMessage().contains("DATABASE_URL"), error.getMessage());
    }

    @Test
    void aPoolSizeThatIsNotAPositiveIntegerIsNamed() {
        var error = assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(
                Map.of("DATABASE_URL", "postgres://u:p@h:5432/d", "DB_POOL_SIZE", "0")));
        assertTrue(error.getMessage().contains("DB_POOL_SIZE"), error.getMessage());
    }
}
