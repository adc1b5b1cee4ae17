package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
