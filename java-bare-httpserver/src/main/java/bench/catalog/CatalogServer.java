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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The JDK's HTTP server with one context, the router, and a virtual thread per exchange. */
public final class CatalogServer {

    /** Connections waiting to be accepted; the JDK's default (50) is small for a burst of clients. */
    private static final int BACKLOG = 1024;

    static {
        // Responses are written in one piece; Nagle's algorithm would only delay the last segment.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
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
        server.setExecutor(executor);
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
