package bench.catalog;

import bench.catalog.category.CategoryHandlers;
import bench.catalog.category.CategoryRepository;
import bench.catalog.db.Database;
import bench.catalog.http.Admission;
import bench.catalog.http.Router;
import bench.catalog.item.ItemHandlers;
import bench.catalog.item.ItemRepository;
import bench.catalog.stock.StockClient;
import bench.catalog.stock.StockHandlers;
import bench.catalog.system.SystemHandlers;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

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

    /**
     * Exchanges waiting for a place, beyond which they are refused: half as many as the places. A
     * kept-alive connection waiting holds its 16 KiB of buffers, so together they keep to about
     * an eighth of the heap.
     */
    private static final int MAX_WAITING = MAX_EXCHANGES / 2;

    /** Exchanges being refused at once: an eighth of the places, a sixteenth of the heap at 33 KB each. */
    private static final int MAX_REFUSALS = MAX_EXCHANGES / 8;

    static {
        // Responses are written in one piece; Nagle's algorithm would only delay the last segment.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        // A request must have arrived whole within 9 s of its first byte, or the server closes its
        // connection: a client that sends its headers slowly holds a connection no longer than that.
        // 9, not the contract's 10: the server's timer looks once a second, so it closes within 10.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", "9");
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
        server.setExecutor(new Admission(MAX_EXCHANGES, MAX_WAITING, MAX_REFUSALS, executor));
        server.createContext("/", router);
        server.start();
        return new CatalogServer(server, executor);
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
