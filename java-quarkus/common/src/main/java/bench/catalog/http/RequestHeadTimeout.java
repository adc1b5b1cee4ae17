package bench.catalog.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The wait for a request's head (README.md, "Limits"): the contract's 10 s from the accept for a
 * connection's first request, then {@code quarkus.http.idle-timeout} between requests, never while
 * one is being answered.
 *
 * <p>Vert.x has no timeout for a request's head, and its idle timeout counts from the accept and
 * between reads whatever the connection is doing. At 4 s, what a client sending a header line every
 * 5 s needs, it closed the connections of a burst that the server had accepted but not yet read,
 * unanswered; and it would close a request waiting for the database. Quarkus gives no code a
 * connection before its first request has arrived whole, so at the first request this route puts a
 * handler on the listening channel, before Vert.x's acceptor, that gives every connection accepted
 * from then on a {@link RequestsInFlight} right after Vert.x's idle handler (and after the one
 * Vert.x puts in its place once the first bytes are read). It drops the idle events while the
 * connection waits for its first bytes, and has it closed 10 s after the accept if its first head
 * is not in by then; it drops them while any of its requests is being answered; otherwise they
 * close it as before: a head sent a line every 5 s is closed 4 s after a line.
 */
@ApplicationScoped
public class RequestHeadTimeout {

    /** spec/API.md, "Overload and slow clients": a head has 10 s. */
    static final long FIRST_HEAD_MS = 10_000;

    /** The listening channel AcceptedConnections is on: each request after the first only compares. */
    private volatile Channel listening;

    void install(@Observes Router router) {
        // First of all routes: from here on the request is being answered.
        router.route().order(Integer.MIN_VALUE).handler(this::arrived);
    }

    private void arrived(RoutingContext context) {
        // HTTP/1.1 and HTTP/2 connections alike are Vert.x ConnectionBases; the Netty pipeline is
        // reachable through nothing public.
        if (context.request().connection() instanceof ConnectionBase connection) {
            Channel channel = connection.channel();
            if (channel.parent() != null && channel.parent() != listening) {
                AcceptedConnections.on(channel.parent());
                listening = channel.parent();
            }
            RequestsInFlight requests = RequestsInFlight.on(channel.pipeline());
            if (requests != null) {
                requests.began();
                context.addEndHandler(answered -> requests.ended());
            }
        }
        context.next();
    }

    /**
     * On the listening channel, before Vert.x's acceptor: each connection it accepts gets, once
     * Vert.x has set up its pipeline, a {@link RequestsInFlight} that counts its first head's 10 s.
     */
    static final class AcceptedConnections extends ChannelInboundHandlerAdapter {

        /** Installs one on `server` unless it has one. */
        static void on(Channel server) {
            if (server.pipeline().get(AcceptedConnections.class) != null) {
                return;
            }
            // Both requests of two connections may get here at once; one handler is added.
            synchronized (AcceptedConnections.class) {
                if (server.pipeline().get(AcceptedConnections.class) == null) {
                    server.pipeline().addFirst(AcceptedConnections.class.getSimpleName(), new AcceptedConnections());
                }
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            // The acceptor first: it adds Vert.x's initializer, which this one's must follow.
            context.fireChannelRead(message);
            if (message instanceof Channel accepted) {
                accepted.pipeline().addLast(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        RequestsInFlight.atAccept(channel.pipeline());
                    }
                });
            }
        }
    }

    /**
     * Drops the idle handler's events while the connection waits for its first head (the deadline
     * closes it instead) and while it has a request being answered.
     */
    // Sharable only so that it may be moved within its own connection's pipeline: Netty refuses a
    // second add of any other handler; it is never put in another pipeline.
    @ChannelHandler.Sharable
    static final class RequestsInFlight extends ChannelInboundHandlerAdapter {

        private final AtomicInteger answering = new AtomicInteger();
        private final boolean countsFirstHead;
        private volatile boolean requested;
        private ScheduledFuture<?> firstHead;
        /** The idle handler this one sits right after. */
        private ChannelHandler following;

        private RequestsInFlight(boolean countsFirstHead) {
            this.countsFirstHead = countsFirstHead;
        }

        /** A new connection's, right after its idle handler; none without an idle timeout. */
        static RequestsInFlight atAccept(ChannelPipeline pipeline) {
            return add(pipeline, true);
        }

        /**
         * The connection's own: the one added at its accept, or, for a connection accepted before
         * the first request installed {@link AcceptedConnections}, one added now.
         */
        static RequestsInFlight on(ChannelPipeline pipeline) {
            return add(pipeline, false);
        }

        private static RequestsInFlight add(ChannelPipeline pipeline, boolean atAccept) {
            ChannelHandlerContext idle = pipeline.context(IdleStateHandler.class);
            RequestsInFlight existing = pipeline.get(RequestsInFlight.class);
            if (idle == null) {
                return existing;
            }
            String name = RequestsInFlight.class.getSimpleName();
            if (existing == null) {
                existing = new RequestsInFlight(atAccept);
                pipeline.addAfter(idle.name(), name, existing);
            } else if (existing.following != idle.handler() && pipeline.context(existing) != null) {
                // Vert.x replaces the idle handler once the first bytes tell HTTP/1.1 from h2c, and
                // adds the new one further on: this one follows it there.
                pipeline.remove(existing);
                pipeline.addAfter(idle.name(), name, existing);
            }
            existing.following = idle.handler();
            return existing;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext context) {
            // Once, at the accept: moved after a new idle handler, it is added again.
            if (countsFirstHead && !requested && firstHead == null) {
                firstHead = context.executor().schedule(() -> {
                    if (!requested) {
                        context.channel().close();
                    }
                }, FIRST_HEAD_MS, TimeUnit.MILLISECONDS);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) throws Exception {
            if (firstHead != null) {
                firstHead.cancel(false);
            }
            super.channelInactive(context);
        }

        void began() {
            requested = true;
            answering.incrementAndGet();
        }

        void ended() {
            answering.decrementAndGet();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
            boolean waitingForFirstHead = countsFirstHead && !requested;
            if (event instanceof IdleStateEvent && (waitingForFirstHead || answering.get() > 0)) {
                return;
            }
            super.userEventTriggered(context, event);
        }
    }
}
