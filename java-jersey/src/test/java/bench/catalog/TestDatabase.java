package bench.catalog;

import bench.catalog.data.Database;

/**
 * The database the tests run against: DATABASE_URL, a freshly seeded database (the runner
 * passes one). Opened once for the whole test run.
 */
final class TestDatabase {

    private static Config config;
    private static Database database;

    private TestDatabase() {
    }

    static synchronized Config config() {
        if (config == null) {
            if (System.getenv("DATABASE_URL") == null) {
                throw new IllegalStateException("the tests need DATABASE_URL pointing at a seeded database");
            }
            config = Config.fromEnvironment();
        }
        return config;
    }

    static synchronized Database database() {
        if (database == null) {
            database = Database.connect(config());
            Runtime.getRuntime().addShutdownHook(new Thread(database::close));
        }
        return database;
    }
}
