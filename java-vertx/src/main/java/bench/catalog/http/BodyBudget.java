package bench.catalog.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of request bodies that the process holds at once, shared by every verticle instance.
 * A write's body is read only if what it may take (its Content-Length, or the body limit when it
 * comes chunked) fits what is left; that is given back when its response ends. A body that does not
 * fit is answered 503 before a byte of it is read (README.md, "Limits"). On the route before the
 * {@code BodyHandler}, which vertx-web allows a platform handler.
 */
public final class BodyBudget implements PlatformHandler {

    /**
     * Thirty-two bodies of the largest size: an eighth of the heap that jvm.options gives at the
     * benchmark's cap, and thousands of the benchmark's own bodies (5 KB).
     */
    public static final long BYTES = 32 * Api.BODY_LIMIT;

    private final AtomicLong available;

    public BodyBudget(long bytes) {
        available = new AtomicLong(bytes);
    }

    @Override
    public void handle(RoutingContext ctx) {
        long size = bytesOf(ctx.request());
        if (available.addAndGet(-size) < 0) {
            available.addAndGet(size);
            ctx.fail(new ServerBusyException());
            return;
        }
        ctx.addEndHandler(ended -> available.addAndGet(size));
        ctx.next();
    }

    /**
     * What the body may take: its announced length, or the limit when it comes chunked. A longer
     * announced one takes nothing, as the {@code BodyHandler} answers it 413 without reading it.
     */
    private static long bytesOf(HttpServerRequest request) {
        if (request.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            return Api.BODY_LIMIT;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length == null) {
            return 0;
        }
        try {
            long announced = Long.parseLong(length.strip());
            return announced > Api.BODY_LIMIT ? 0 : announced;
        } catch (NumberFormatException e) {
            // Netty refuses a malformed length before any handler runs; count the most a body may take.
            return Api.BODY_LIMIT;
        }
    }
}
