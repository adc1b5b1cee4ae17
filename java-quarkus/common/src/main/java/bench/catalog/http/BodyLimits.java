package bench.catalog.http;

import bench.catalog.errors.Problem;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLong;

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
 * {@link #BUDGET_BYTES}, each taking its announced length (1 MiB when chunked) until its response
 * ends. A body that does not fit is a 503 at once, and its connection is closed, its body unread.
 * The heavy-body scenario's 5 KB bodies fit about 1,600 at once; a burst of 1 MiB bodies is read
 * {@code BUDGET_BYTES / 1 MiB} at a time.
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

    private final byte[] tooLarge;
    private final byte[] notJson;
    private final byte[] busy;
    private final AtomicLong available = new AtomicLong(BUDGET_BYTES);

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
        if (available.addAndGet(-cost) < 0) {
            available.addAndGet(cost);
            // Not a byte more of this body is read: the connection closes after the answer.
            request.pause();
            refuse(context, 503, busy);
            return;
        }
        context.addEndHandler(done -> available.addAndGet(cost));
        context.next();
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
}
