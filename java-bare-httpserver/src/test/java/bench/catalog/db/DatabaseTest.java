package bench.catalog.db;

import bench.catalog.Config;
import bench.catalog.error.Problems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The pool as the server configures it, against the database named by DATABASE_URL. */
@EnabledIfEnvironmentVariable(named = "DATABASE_URL", matches = ".+")
class DatabaseTest {

    private static Database database;

    @BeforeAll
    static void open() {
        var env = new HashMap<>(System.getenv());
        env.put("DB_POOL_SIZE", "1");
        database = Database.open(Config.fromEnvironment(env));
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /**
     * PostgreSQL's DETAIL of a violation quotes the row ("Failing row contains (…)"); the driver
     * must not copy it into the exception, whose text reaches the log of a 500.
     */
    @Test
    void aViolationsRowValuesStayOutOfTheExceptionAndTheLog() throws SQLException {
        // Short enough for category.code, varchar(32).
        String rowValue = "row-value-" + UUID.randomUUID().toString().substring(0, 8);
        SQLException failure;
        // A NOT NULL violation: the statement fails as a whole, so no row is left behind.
        try (Connection connection = database.dataSource().getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO category (code, name) VALUES (?, NULL)")) {
            insert.setString(1, rowValue);
            failure = assertThrows(SQLException.class, insert::executeUpdate);
        }
        assertEquals("23502", failure.getSQLState());
        assertFalse(failure.getMessage().contains(rowValue), failure.getMessage());

        String logged = String.join("\n", logOf(Problems.class, () -> Problems.from(failure)));
        assertFalse(logged.isEmpty(), "a 23502 is a logged 500");
        assertFalse(logged.contains(rowValue), logged);
    }

    /** What {@code action} logs through {@code source}'s logger, each record formatted as the JDK does. */
    private static List<String> logOf(Class<?> source, Runnable action) {
        var formatter = new SimpleFormatter();
        var lines = new ArrayList<String>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(formatter.format(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(source.getName());
        boolean useParentHandlers = logger.getUseParentHandlers();
        logger.addHandler(capture);
        // The captured 500 is expected; the test output need not show it.
        logger.setUseParentHandlers(false);
        try {
            action.run();
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(useParentHandlers);
        }
        return lines;
    }
}
