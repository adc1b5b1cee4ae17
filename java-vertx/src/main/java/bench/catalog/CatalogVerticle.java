package bench.catalog;

import bench.catalog.data.CategoryRepository;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.StockClient;
import bench.catalog.http.Api;
import bench.catalog.http.BodyBudget;
import bench.catalog.http.RequestHeadTimeout;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/** The HTTP server, its database pool and the stock client, one verticle per event loop. */
public final class CatalogVerticle extends VerticleBase {

    private static final Logger LOG = Logger.getLogger(CatalogVerticle.class.getName());

    /** How long requests in flight may take to finish after SIGTERM (spec/API.md allows 10 s in all). */
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(8);

    /** The longest a request waits for a pooled connection before it is answered 503. */
    private static final int POOL_WAIT_SECONDS = 5;

    /**
     * The longest a new connection may take to open. Where PostgreSQL's address stops answering
     * (a stopped container), an attempt would otherwise hang for Vert.x's default of 60 s and hold
     * a place in the pool after PostgreSQL is back.
     */
    private static final int CONNECT_TIMEOUT_MS = 5000;

    /**
     * A request line of 8,000 octets of path and query is served (spec/API.md), which Netty's
     * default of 4,096 would refuse; longer ones are answered 414 by Vert.x.
     */
    private static final int MAX_REQUEST_LINE = 8192;

    private final Config config;
    private final BodyBudget bodies;
    private Pool pool;
    private StockClient stock;
    private HttpServer server;

    /** {@code bodies} is the process's one budget of request body bytes, shared by every instance. */
    public CatalogVerticle(Config config, BodyBudget bodies) {
        this.config = config;
        this.bodies = bodies;
    }

    @Override
    public Future<?> start() {
        pool = PgBuilder.pool()
                .with(new PoolOptions()
                        .setMaxSize(config.poolSize())
                        // Every verticle instance shares this one pool, so DB_POOL_SIZE bounds the process.
                        .setShared(true)
                        .setName("catalog")
                        .setConnectionTimeout(POOL_WAIT_SECONDS)
                        .setConnectionTimeoutUnit(TimeUnit.SECONDS))
                .with(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS))
                .connectingTo(config.database().setCachePreparedStatements(true))
                .using(vertx)
                .build();

        stock = StockClient.create(vertx, config.stockUrl());

        RequestHeadTimeout heads = new RequestHeadTimeout(vertx);
        Api api = new Api(vertx, new CategoryRepository(pool), new ItemRepository(pool), stock, pool, config, bodies,
                heads);
        return pool.query("SELECT 1").execute()
                .recover(failure -> Future.failedFuture(new IllegalStateException(
                        "the database at " + config.database().getHost() + ":" + config.database().getPort()
                                + " does not answer: " + failure.getMessage(), failure)))
                .compose(ready -> vertx.createHttpServer(new HttpServerOptions()
                                .setMaxInitialLineLength(MAX_REQUEST_LINE)
                                // HTTP/1.1 only: looking for an h2c upgrade, Vert.x would set up a
                                // connection (and call its connection handler) only once the first
                                // request's head is in, too late for the RequestHeadTimeout.
                                .setHttp2ClearTextEnabled(false))
                        .connectionHandler(connection -> {
                            heads.opened(connection);
                            // A client that resets its connection fails the connection's read: with no
                            // handler, Vert.x logs that at ERROR. A request it cut short is failed too,
                            // and logged once by Problems.
                            connection.exceptionHandler(failure -> LOG.fine(() -> "connection failed: " + failure));
                        })
                        .requestHandler(api.router())
                        .listen(config.port(), config.host()))
                .onSuccess(listening -> server = listening);
    }

    @Override
    public Future<?> stop() {
        Future<Void> drained = server == null
                ? Future.succeededFuture()
                : server.shutdown(SHUTDOWN_GRACE.toSeconds(), TimeUnit.SECONDS);
        return drained.eventually(() -> {
            stock.close();
            return pool.close();
        });
    }
}
