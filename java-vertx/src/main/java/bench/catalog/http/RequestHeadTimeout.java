package bench.catalog.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.Map;

/**
 * Closes a connection whose next request has not arrived whole (its request line and headers)
 * within {@link #TIMEOUT_MS} of the connection opening or of the previous response. Vert.x's HTTP
 * server has no timeout for a request's head, and its idle timeouts count the time between reads
 * whatever the connection is doing, so they would also close one whose request waits for the
 * database. One instance per verticle: its connections and their timers live on its event loop.
 */
public final class RequestHeadTimeout {

    /** spec/API.md, "Overload and slow clients". */
    static final long TIMEOUT_MS = 10_000;

    private final Vertx vertx;
    private final Map<HttpConnection, Long> timers = new HashMap<>();

    public RequestHeadTimeout(Vertx vertx) {
        this.vertx = vertx;
    }

    /** The server's connection handler: the first request has until the timeout to arrive. */
    public void opened(HttpConnection connection) {
        arm(connection);
        connection.closeHandler(closed -> disarm(connection));
    }

    /** The router's first handler: this request has arrived, and the next one's time starts when it is answered. */
    void arrived(RoutingContext ctx) {
        HttpConnection connection = ctx.request().connection();
        disarm(connection);
        ctx.addEndHandler(answered -> {
            if (answered.succeeded()) {
                arm(connection);
            }
        });
        ctx.next();
    }

    private void arm(HttpConnection connection) {
        timers.put(connection, vertx.setTimer(TIMEOUT_MS, fired -> {
            timers.remove(connection);
            connection.close();
        }));
    }

    private void disarm(HttpConnection connection) {
        Long timer = timers.remove(connection);
        if (timer != null) {
            vertx.cancelTimer(timer);
        }
    }
}
