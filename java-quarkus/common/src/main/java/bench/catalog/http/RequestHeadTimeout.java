package bench.catalog.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The wait for a request's head (README.md, "Limits"): {@code quarkus.http.idle-timeout}, made to
 * count only while a connection has no request being answered.
 *
 * <p>Vert.x has no timeout for a request's head, and Quarkus hands out no connection before its
 * first request has arrived whole, so the one bound on a head that never ends is Vert.x's idle
 * timeout: a connection on which nothing is read or written for that long is closed. It counts
 * between reads, and so closes a client that sends a header line every 5 s; but it counts just
 * the same while the server takes its time to answer, and would close a request waiting for the
 * database or the stock service. So once a connection's first request is in, this route puts a
 * handler after Vert.x's idle handler on the connection that drops the idle events while any of
 * its requests is being answered; between requests they close it as before.
 */
@ApplicationScoped
public class RequestHeadTimeout {

    void install(@Observes Router router) {
        // First of all routes: from here on the request is being answered.
        router.route().order(Integer.MIN_VALUE).handler(this::arrived);
    }

    private void arrived(RoutingContext context) {
        // HTTP/1.1 and HTTP/2 connections alike are Vert.x ConnectionBases; the Netty pipeline is
        // reachable through nothing public.
        if (context.request().connection() instanceof ConnectionBase connection) {
            RequestsInFlight requests = RequestsInFlight.on(connection.channel().pipeline());
            if (requests != null) {
                requests.began();
                context.addEndHandler(answered -> requests.ended());
            }
        }
        context.next();
    }

    /** Drops the idle handler's events while the connection has a request being answered. */
    static final class RequestsInFlight extends ChannelInboundHandlerAdapter {

        private final AtomicInteger answering = new AtomicInteger();

        /** The connection's own, added after its idle handler at its first request; none without an idle timeout. */
        static RequestsInFlight on(ChannelPipeline pipeline) {
            RequestsInFlight existing = pipeline.get(RequestsInFlight.class);
            if (existing != null) {
                return existing;
            }
            ChannelHandlerContext idle = pipeline.context(IdleStateHandler.class);
            if (idle == null) {
                return null;
            }
            RequestsInFlight added = new RequestsInFlight();
            pipeline.addAfter(idle.name(), RequestsInFlight.class.getSimpleName(), added);
            return added;
        }

        void began() {
            answering.incrementAndGet();
        }

        void ended() {
            answering.decrementAndGet();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
            if (event instanceof IdleStateEvent && answering.get() > 0) {
                return;
            }
            super.userEventTriggered(context, event);
        }
    }
}
