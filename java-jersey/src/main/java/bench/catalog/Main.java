package bench.catalog;

import bench.catalog.data.Database;
import bench.catalog.data.StockClient;
import bench.catalog.errors.ProblemErrorPages;
import bench.catalog.http.CatalogApplication;
import bench.catalog.http.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.http.server.ServerConfiguration;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.internal.Version;
import org.glassfish.jersey.server.ResourceConfig;

public final class Main {

    static final String NAME = "java-jersey";

    private static final Logger LOG = Logger.getLogger(Main.class.getName());

    /** In-flight requests get this long after SIGTERM; the runner allows 10 s in all. */
    private static final long SHUTDOWN_GRACE_SECONDS = 8;

    /** The time a request's line and headers have from their first bytes (spec/API.md, "Overload and slow clients"). */
    static final Duration REQUEST_HEAD_LIMIT = Duration.ofSeconds(10);

    /**
     * Grizzly's keep-alive idle timeout, which its IdleTimeoutFilter counts whenever no read or
     * write of the connection is under way: an idle kept-alive connection's wait, and also the
     * wait of a connection accepted and not yet read, or of a body between two reads, while the
     * workers are busy. Tomcat's 60 s, so that a burst the server is slow to read is not cut
     * (README.md, "Limits"); {@link RequestHeadTimeout} bounds a head on its own.
     */
    private static final int IDLE_TIMEOUT_SECONDS = 60;

    /**
     * What is left of a body that was answered without being read whole, which Grizzly reads and
     * throws away to keep the connection; past this it closes the connection instead. Its default
     * (no limit) keeps each such request and its read buffer until the whole body has come: under
     * a burst of large bodies answered 503 unread, thousands at once (README.md, "Limits").
     */
    private static final long MAX_UNREAD_BODY_TO_SKIP = 64 * 1024;

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        configureLogging();
        Config config;
        Database database;
        try {
            config = Config.fromEnvironment();
            database = Database.connect(config);
        } catch (Config.ConfigException | Database.UnreachableException e) {
            System.err.println(NAME + ": " + e.getMessage());
            System.exit(1);
            return;
        }

        ObjectMapper mapper = Json.newMapper();
        StockClient stock = new StockClient(config.stockUrl(), mapper);
        HttpServer server;
        try {
            server = startServer(config, database, stock, mapper);
        } catch (IOException e) {
            System.err.println(NAME + ": cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage());
            stock.close();
            database.close();
            System.exit(1);
            return;
        }
        System.out.printf("%s %s (Jersey %s, Hibernate %s, Java %s) listening on %s:%d, pool size %d%n",
                NAME, version(), Version.getVersion(), org.hibernate.Version.getVersionString(), Runtime.version(),
                config.host(), config.port(), config.poolSize());

        // SIGTERM and SIGINT run the JVM's shutdown hooks: this one stops the server gracefully, and
        // the JVM then exits with 128 + the signal (143 for SIGTERM), as spec/API.md allows.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, stock, database), "graceful-shutdown"));
        // Grizzly's threads are daemons: the main thread keeps the process alive until it is stopped.
        Thread.currentThread().join();
    }

    /** Grizzly serving the JAX-RS application, as in Jersey's {@code examples/helloworld}. */
    public static HttpServer startServer(Config config, Database database, StockClient stock, ObjectMapper mapper)
            throws IOException {
        URI uri = URI.create("http://" + config.host() + ":" + config.port() + "/");
        HttpServer server = createServer(uri, new CatalogApplication(config, database, stock, mapper), mapper,
                config.poolSize());
        server.start();
        return server;
    }

    /** The Grizzly server for an application, configured but not started (the tests start it too). */
    public static HttpServer createServer(URI uri, ResourceConfig application, ObjectMapper mapper, int poolSize) {
        HttpServer server = GrizzlyHttpServerFactory.createHttpServer(uri, application, false);
        // Grizzly's default is 2 workers per core, too few for blocking JDBC calls. Four per pooled
        // connection keep the pool busy while others parse and write, and let requests wait for a
        // connection (5 s, then 503) rather than in Grizzly's queue without a time limit.
        int workers = Math.max(8, 4 * poolSize);
        NetworkListener listener = server.getListener("grizzly");
        ThreadPoolConfig pool = listener.getTransport().getWorkerThreadPoolConfig();
        pool.setCorePoolSize(workers).setMaxPoolSize(workers);
        listener.registerAddOn(new IgnoreH2cUpgrade());
        listener.getKeepAlive().setIdleTimeoutInSeconds(IDLE_TIMEOUT_SECONDS);
        ServerConfiguration configuration = server.getServerConfiguration();
        // Grizzly would answer a bare 400 itself to a DELETE with a body; Jersey answers it instead.
        configuration.setAllowPayloadForUndefinedHttpMethods(true);
        configuration.setMaxPayloadRemainderToSkip(MAX_UNREAD_BODY_TO_SKIP);
        configuration.setDefaultErrorPageGenerator(new ProblemErrorPages(mapper));
        configuration.getMonitoringConfig().getHttpConfig().addProbes(new RequestHeadTimeout(REQUEST_HEAD_LIMIT));
        return server;
    }

    /** Stop accepting, let in-flight requests finish, then close the stock client and the pool. */
    private static void stop(HttpServer server, StockClient stock, Database database) {
        try {
            server.shutdown(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS).get(SHUTDOWN_GRACE_SECONDS + 1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(Level.WARNING, "graceful shutdown did not complete", e);
        } finally {
            server.shutdownNow();
            stock.close();
            database.close();
        }
    }

    private static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version != null ? version : "dev";
    }

    /** java.util.logging as {@code logging.properties} sets it up (levels and a one-line format). */
    private static void configureLogging() {
        try (InputStream properties = Main.class.getResourceAsStream("/logging.properties")) {
            LogManager.getLogManager().readConfiguration(properties);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
