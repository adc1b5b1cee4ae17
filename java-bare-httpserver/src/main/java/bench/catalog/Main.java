package bench.catalog;

import bench.catalog.db.Database;
import bench.catalog.stock.StockClient;

import java.util.logging.Level;
import java.util.logging.Logger;

public final class Main {

    private static final String NAME = "java-bare-httpserver";

    /** In-flight requests get this long after SIGTERM; with the pool's close the exit stays within 10 s. */
    private static final int DRAIN_SECONDS = 5;

    /** Held so that the level set on it is not lost to garbage collection. */
    private static final Logger HIKARI_LOG = Logger.getLogger("com.zaxxer.hikari");

    private Main() {
    }

    public static void main(String[] args) {
        // One line per record on stderr; stdout carries only the start-up line (and the request log).
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %3$s: %5$s%6$s%n");
        }
        HIKARI_LOG.setLevel(Level.WARNING);

        Config config;
        try {
            config = Config.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            throw fail(e.getMessage());
        }
        Database database;
        try {
            database = Database.open(config);
        } catch (RuntimeException e) {
            throw fail("cannot connect to the database at " + config.dbTarget() + ": " + rootCause(e).getMessage());
        }
        var stock = new StockClient(config.stockUrl());
        CatalogServer server;
        try {
            server = CatalogServer.start(config, database, stock);
        } catch (Exception e) {
            stock.close();
            database.close();
            throw fail("cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage());
        }
        System.out.printf("%s %s (Java %s, com.sun.net.httpserver) listening on http://%s:%d, pool size %d%n",
                NAME, version(), Runtime.version(), config.host(), server.port(), config.poolSize());

        // SIGTERM runs this hook; the JVM then exits with 143, which the contract counts as a clean stop.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(DRAIN_SECONDS);
            stock.close();
            database.close();
        }, "shutdown"));
    }

    private static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private static RuntimeException fail(String message) {
        System.err.println(NAME + ": " + message);
        System.exit(1);
        return new IllegalStateException(message);
    }
}
