package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {

    @Test
    void databaseUrlBecomesJdbcUrlAndCredentials() {
        Config config = Config.from(Map.of("DATABASE_URL", "postgres://bench:p%40ss@db.local:6543/catalog"));
        assertEquals("jdbc:postgresql://db.local:6543/catalog", config.jdbcUrl());
        assertEquals("bench", config.databaseUser());
        assertEquals("p@ss", config.databasePassword());
        assertEquals("db.local:6543/catalog", config.databaseLabel());
    }

    @Test
    void defaults() {
        Config config = Config.from(Map.of("DATABASE_URL", "postgresql://localhost/db"));
        assertEquals("jdbc:postgresql://localhost:5432/db", config.jdbcUrl());
        assertNull(config.databaseUser());
        assertEquals("127.0.0.1", config.host());
        assertEquals(8080, config.port());
        assertEquals(10, config.poolSize());
        assertEquals("https://avatar.example.com", config.avatarBaseUrl());
        assertEquals(21, config.avatarCount());
        assertEquals(false, config.logRequests());
        assertEquals(URI.create("http://127.0.0.1:8099"), config.stockUrl());
        assertEquals(Config.CategoryItems.SUB_RESOURCE_LOCATOR, config.categoryItems());
    }

    @Test
    void stockUrlIsAHostAndPortWithAtMostATrailingSlash() {
        Config config = Config.from(Map.of("DATABASE_URL", "postgres://h/db", "STOCK_URL", "http://stock.internal:9000/"));
        assertEquals(URI.create("http://stock.internal:9000"), config.stockUrl());
        for (String invalid : new String[] {"127.0.0.1:8099", "https://h:1", "http://h:1/stock", "http:///", "http://u@h:1",
                "http://h:1?q=1", "not a url"}) {
            var error = assertThrows(Config.ConfigException.class,
                    () -> Config.from(Map.of("DATABASE_URL", "postgres://h/db", "STOCK_URL", invalid)), invalid);
            assertTrue(error.getMessage().contains("STOCK_URL"), error.getMessage());
        }
    }

    @Test
    void categoryItemsChoosesTheRouting() {
        assertEquals(Config.CategoryItems.RESOURCE_METHOD,
                Config.from(Map.of("DATABASE_URL", "postgres://h/db", "CATEGORY_ITEMS", "resource-method")).categoryItems());
        assertThrows(Config.ConfigException.class,
                () -> Config.from(Map.of("DATABASE_URL", "postgres://h/db", "CATEGORY_ITEMS", "method")));
    }

    @Test
    void missingOrInvalidSettingsFailWithAClearMessage() {
        var missing = assertThrows(Config.ConfigException.class, () -> Config.from(Map.of()));
        assertTrue(missing.getMessage().contains("DATABASE_URL"));
        var port = assertThrows(Config.ConfigException.class,
                () -> Config.from(Map.of("DATABASE_URL", "postgres://h/db", "PORT", "eighty")));
        assertTrue(port.getMessage().contains("PORT"));
        assertThrows(Config.ConfigException.class, () -> Config.from(Map.of("DATABASE_URL", "mysql://h/db")));
    }
}
