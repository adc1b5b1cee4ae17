package bench.catalog;

import bench.catalog.category.CategoryHandlers;
import bench.catalog.category.CategoryRepository;
import bench.catalog.db.Database;
import bench.catalog.http.Router;
import bench.catalog.item.ItemHandlers;
import bench.catalog.item.ItemRepository;
import bench.catalog.stock.StockClient;
import bench.catalog.stock.StockHandlers;
import bench.catalog.system.SystemHandlers;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/** The JDK's HTTP server with one context, the router, and a virtual thread per exchange. */
public final class CatalogServer {

    /** Connections waiting to be accepted; the JDK's default (50) is small for a burst of clients. */
    private static final int BACKLOG = 1024;

    /**
     * Exchanges served at once: one for each 64 KiB of heap (1,980 at jvm.options's 128 MiB). Each
     * holds its connection's buffers and its virtual thread's stack, about 33 KB while it waits for
     * a slow client's headers, so together they keep to about half the heap (README.md, "Limits").
     */
    private static final int MAX_EXCHANGES = (int) (Runtime.getRuntime().maxMemory() / (64 << 10));

    static {
        // Responses are written in one piece; Nagle's algorithm would only delay the last segment.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        // A request must have arrived whole within 10 s of its first byte, or the server closes its
        // connection: a client that sends its headers slowly holds a connection no longer than that.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", "10");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;

    private CatalogServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static CatalogServer start(Config config, Database database, StockClient stock) throws IOException {
        var router = new Router(config.logRequests());
        new CategoryHandlers(new CategoryRepository(database.dataSource())).register(router);
        new ItemHandlers(new ItemRepository(database.dataSource())).register(router);
        new StockHandlers(stock).register(router);
        new SystemHandlers(database, config.avatarBaseUrl(), config.avatarCount()).register(router);

        HttpServer server = HttpServer.create(new InetSocketAddress(config.host(), config.port()), BACKLOG);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(atMost(MAX_EXCHANGES, executor));
        server.createContext("/", router);
        server.start();
        return new CatalogServer(server, executor);
    }

    /**
     * Runs at most {@code limit} exchanges at once, each on its own virtual thread. One more waits
     * for a place before the server reads its request or gives it any buffer, so a waiting
     * exchange costs its virtual thread and little else.
     */
    private static Executor atMost(int limit, ExecutorService threads) {
        var places = new Semaphore(limit);
        return exchange -> threads.execute(() -> {
            try {
                places.acquire();
            } catch (InterruptedException stopping) {
                return;
            }
            try {
                exchange.run();
            } finally {
                places.release();
            }
        });
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops accepting, lets in-flight exchanges finish for up to {@code drainSeconds}, then drops the rest. */
    public void stop(int drainSeconds) {
        server.stop(drainSeconds);
        executor.shutdownNow();
    }
}
