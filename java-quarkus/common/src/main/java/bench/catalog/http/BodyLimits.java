package bench.catalog.http;

import bench.catalog.errors.Problem;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a request body may cost, decided before a byte of it is read (README.md, "Limits").
 *
 * <p>The size: the contract's 1 MiB (spec/API.md, "Content-Type, size and syntax"), answered as
 * problem JSON. Quarkus' own refusal answers an empty 413, so this route, just before Quarkus' at
 * {@code ROUTE_ORDER_UPLOAD_LIMIT}, refuses a body announced larger, a 415 first when a write's
 * Content-Type is not JSON (the Content-Type comes before the size); both close the connection,
 * as the body is left unread. A chunked body is counted while JsonBodyReader reads it. Quarkus'
 * {@code quarkus.http.limits.max-body-size} stays above this limit as the bound of what Vert.x
 * buffers at all.
 *
 * <p>How many at once: the bodies being read and parsed share a budget of
 * {@link #BUDGET_BYTES}, each taking its announced length (1 MiB when chunked). A request that
 * does not fit waits, its connection paused and unread (backpressure), until earlier bodies are
 * answered; one that still does not fit after {@link #WAIT_MS} is a 503 that closes the
 * connection. The heavy-body scenario's 5 KB bodies fit thousands at once; a burst of 1 MiB
 * bodies is read {@code BUDGET_BYTES / 1 MiB} at a time.
 */
@ApplicationScoped
public class BodyLimits {

    /** 1 MiB: one byte more is a 413. */
    public static final long MAX_BODY_BYTES = 1_048_576;
    /**
     * Reading and parsing a body holds several times its bytes at once (Quarkus REST's buffer,
     * its copy, Jackson's growing text buffer, the string): measured, a burst of 1 MiB bodies
     * with 24 MiB here ran a 205 MiB heap out of memory; 8 leaves it room.
     */
    static final long BUDGET_BYTES = 8 * MAX_BODY_BYTES;
    /** Below the server's idle timeout (4 s), so that the wait ends in an answer. */
    static final long WAIT_MS = 3_000;

    private final byte[] tooLarge;
    private final byte[] notJson;
    private final byte[] busy;
    private final Deque<Waiting> waiting = new ArrayDeque<>();
    private long available = BUDGET_BYTES;

    public BodyLimits(ObjectMapper json) {
        this.tooLarge = write(json, Problem.of(413, "the body is larger than 1 MiB"));
        this.notJson = write(json, Problem.of(415, "the body must be JSON (Content-Type: application/json)"));
        this.busy = write(json, Problem.of(503, "the server is busy reading other bodies, try again later"));
    }

    void install(@Observes Router router) {
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(this::admit);
    }

    private void admit(RoutingContext context) {
        HttpServerRequest request = context.request();
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        long cost;
        if (length != null) {
            cost = parseLength(length);
            if (cost > MAX_BODY_BYTES) {
                boolean write = request.method() == HttpMethod.POST || request.method() == HttpMethod.PUT;
                boolean json = RequestPreconditions.isJson(request.getHeader(HttpHeaders.CONTENT_TYPE));
                refuse(context, write && !json ? 415 : 413, write && !json ? notJson : tooLarge);
                return;
            }
        } else {
            cost = request.headers().contains(HttpHeaders.TRANSFER_ENCODING) ? MAX_BODY_BYTES : 0;
        }
        if (cost <= 0) {
            context.next();
            return;
        }
        if (take(cost)) {
            proceed(context, cost);
            return;
        }
        request.pause();
        Vertx vertx = context.vertx();
        Waiting entry = new Waiting(context, cost, Vertx.currentContext());
        entry.timer = vertx.setTimer(WAIT_MS, id -> {
            if (forget(entry)) {
                refuse(context, 503, busy);
            }
        });
        synchronized (this) {
            waiting.addLast(entry);
        }
        // A body may have been answered between take() and the queueing above.
        wakeWaiting(vertx);
    }

    private void proceed(RoutingContext context, long cost) {
        context.addEndHandler(done -> release(context.vertx(), cost));
        context.next();
    }

    private synchronized boolean take(long cost) {
        if (!waiting.isEmpty() || cost > available) {
            return false;
        }
        available -= cost;
        return true;
    }

    private synchronized boolean forget(Waiting entry) {
        return waiting.remove(entry);
    }

    private void release(Vertx vertx, long cost) {
        synchronized (this) {
            available += cost;
        }
        wakeWaiting(vertx);
    }

    /** Admits the waiting requests, oldest first, while they fit; each on its own event loop. */
    private void wakeWaiting(Vertx vertx) {
        while (true) {
            Waiting next;
            synchronized (this) {
                next = waiting.peekFirst();
                if (next == null || next.cost > available) {
                    return;
                }
                waiting.removeFirst();
                available -= next.cost;
            }
            vertx.cancelTimer(next.timer);
            Waiting admitted = next;
            admitted.loop.runOnContext(ignored -> {
                admitted.context.request().resume();
                proceed(admitted.context, admitted.cost);
            });
        }
    }

    private static void refuse(RoutingContext context, int status, byte[] problem) {
        HttpServerRequest request = context.request();
        context.response()
                .setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(Buffer.buffer(problem))
                .onComplete(done -> request.connection().close());
    }

    private static long parseLength(String length) {
        try {
            return Long.parseLong(length);
        } catch (NumberFormatException e) {
            return 0; // Vert.x refuses a malformed Content-Length itself
        }
    }

    private static byte[] write(ObjectMapper json, Problem problem) {
        try {
            return json.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request whose body waits for room in the budget, its connection paused. */
    private static final class Waiting {

        final RoutingContext context;
        final long cost;
        final Context loop;
        long timer;

        Waiting(RoutingContext context, long cost, Context loop) {
            this.context = context;
            this.cost = cost;
            this.loop = loop;
        }
    }
}
