package bench.catalog;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigTest {

    @Test
    void derivesTheJdbcFormFromDatabaseUrl() {
        var config = Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://bench:s%40cret@db.local:6543/catalog?sslmode=disable"));
        assertEquals("jdbc:postgresql://db.local:6543/catalog?sslmode=disable", config.jdbcUrl());
        assertEquals("bench", config.dbUser());
        assertEquals("s@cret", config.dbPassword());
        assertFalse(config.toString().contains("cret"));
    }

    @Test
    void appliesTheDefaults() {
        var config = Config.fromEnvironment(Map.of("DATABASE_URL", "postgresql://u@localhost/db"));
        assertEquals("jdbc:postgresql://localhost:5432/db", config.jdbcUrl());
        assertEquals("127.0.0.1", config.host());
        assertEquals(8080, config.port());
        assertEquals(10, config.poolSize());
        assertEquals("https://avatar.example.com", config.avatarBaseUrl());
        assertEquals(21, config.avatarCount());
        assertEquals(URI.create("http://127.0.0.1:8099"), config.stockUrl());
        assertFalse(config.logRequests());
    }

    @Test
    void stockUrlIsAHostAndPortWithAtMostATrailingSlash() {
        var config = Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://h/d", "STOCK_URL", "http://stock.internal:9000/"));
        assertEquals(URI.create("http://stock.internal:9000"), config.stockUrl());
        for (String invalid : new String[] {"127.0.0.1:8099", "https://h:1", "http://h:1/stock", "http:///", "http://u@h:1",
                "http://h:1?q=1", "not a url"}) {
            var error = assertThrows(IllegalArgumentException.class,
                    () -> Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://h/d", "STOCK_URL", invalid)), invalid);
            assertTrue(error.getMessage().contains("STOCK_URL"), error.getMessage());
        }
    }

    @Test
    void readsTheOtherSettings() {
        var config = Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://u:p@h:1/d", "HOST", "0.0.0.0",
                "PORT", "9000", "DB_POOL_SIZE", "3", "AVATAR_BASE_URL", "http://a/", "AVATAR_COUNT", "5",
                "LOG_REQUESTS", "true"));
        assertEquals("0.0.0.0", config.host());
        assertEquals(9000, config.port());
        assertEquals(3, config.poolSize());
        assertEquals("http://a", config.avatarBaseUrl());
        assertEquals(5, config.avatarCount());
        assertTrue(config.logRequests());
    }

    @Test
    void refusesWhatItCannotUse() {
        var missing = assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of()));
        assertTrue(missing.getMessage().contains("DATABASE_URL"));
        assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of("DATABASE_URL", "mysql://h/d")));
        assertThrows(IllegalArgumentException.class, () -> Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://h")));
        assertThrows(IllegalArgumentException.class,
                () -> Config.fromEnvironment(Map.of("DATABASE_URL", "postgres://h/d", "DB_POOL_SIZE", "zero")));
    }
}
