package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.http.RequestHeadTimeout.RequestsInFlight;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The idle handler's events reach Vert.x (which closes the connection) only between requests; a
 * connection's first head has 10 s from its accept.
 */
class RequestHeadTimeoutTest {

    /** Stands for Vert.x's connection handler, after the idle handler: what it is told. */
    private static final class Events extends ChannelInboundHandlerAdapter {
        final List<Object> seen = new ArrayList<>();

        @Override
        public void userEventTriggered(ChannelHandlerContext context, Object event) {
            seen.add(event);
        }
    }

    @Test
    void idleEventsPassOnlyWhileNoRequestIsBeingAnswered() {
        Events vertx = new Events();
        EmbeddedChannel channel = new EmbeddedChannel(new IdleStateHandler(0, 0, 1, TimeUnit.HOURS), vertx);
        RequestsInFlight requests = RequestsInFlight.on(channel.pipeline());
        assertSame(requests, RequestsInFlight.on(channel.pipeline()), "one per connection");

        requests.began();
        requests.began(); // HTTP/1.1 pipelining: the second waits for the first
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        requests.ended();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertEquals(List.of(), vertx.seen);

        requests.ended();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        channel.pipeline().fireUserEventTriggered("another event");
        assertEquals(List.of(IdleStateEvent.ALL_IDLE_STATE_EVENT, "another event"), vertx.seen);
        channel.finishAndReleaseAll();
    }

    @Test
    void withoutAnIdleTimeoutThereIsNothingToHoldBack() {
        EmbeddedChannel channel = new EmbeddedChannel(new Events());
        assertNull(RequestsInFlight.on(channel.pipeline()));
        channel.finishAndReleaseAll();
    }

    @Test
    void theFirstHeadHasTenSecondsFromTheAcceptWhateverTheIdleHandlerSays() {
        Events vertx = new Events();
        EmbeddedChannel channel = new EmbeddedChannel(new IdleStateHandler(0, 0, 4, TimeUnit.SECONDS), vertx);
        RequestsInFlight requests = RequestsInFlight.atAccept(channel.pipeline());
        assertSame(requests, RequestsInFlight.on(channel.pipeline()), "the first request finds the accept's");

        // Accepted and not yet read, or read a header line at a time: the idle events say nothing.
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        channel.advanceTimeBy(RequestHeadTimeout.FIRST_HEAD_MS - 1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen());
        assertEquals(List.of(), vertx.seen);

        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertFalse(channel.isOpen(), "closed 10 s after its accept, its head not in");
        channel.finishAndReleaseAll();
    }

    @Test
    void onceTheFirstHeadIsInTheIdleTimeoutCountsBetweenRequests() {
        Events vertx = new Events();
        EmbeddedChannel channel = new EmbeddedChannel(new IdleStateHandler(0, 0, 4, TimeUnit.SECONDS), vertx);
        RequestsInFlight requests = RequestsInFlight.atAccept(channel.pipeline());

        requests.began();
        channel.advanceTimeBy(RequestHeadTimeout.FIRST_HEAD_MS, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen(), "the deadline is the first head's alone");
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertEquals(List.of(), vertx.seen);

        requests.ended();
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertEquals(List.of(IdleStateEvent.ALL_IDLE_STATE_EVENT), vertx.seen);
        channel.finishAndReleaseAll();
    }

    @Test
    void itFollowsTheIdleHandlerVertxPutsInPlaceOnceTheFirstBytesAreRead() {
        Events vertx = new Events();
        IdleStateHandler atAccept = new IdleStateHandler(0, 0, 4, TimeUnit.SECONDS);
        EmbeddedChannel channel = new EmbeddedChannel(atAccept, vertx);
        RequestsInFlight requests = RequestsInFlight.atAccept(channel.pipeline());

        // As Vert.x's h2c handler does for HTTP/1.1: the accept's idle handler goes, a new one
        // comes after the codec, just before the connection's handler.
        channel.pipeline().remove(atAccept);
        IdleStateHandler http1 = new IdleStateHandler(0, 0, 4, TimeUnit.SECONDS);
        channel.pipeline().addBefore(channel.pipeline().context(vertx).name(), "idle", http1);
        assertSame(requests, RequestsInFlight.on(channel.pipeline()));
        requests.began();

        channel.pipeline().context(http1).fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertEquals(List.of(), vertx.seen, "held back while the request is answered");
        requests.ended();
        channel.pipeline().context(http1).fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertEquals(List.of(IdleStateEvent.ALL_IDLE_STATE_EVENT), vertx.seen);
        channel.advanceTimeBy(RequestHeadTimeout.FIRST_HEAD_MS, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        assertTrue(channel.isOpen(), "moved, it set no second deadline");
        channel.finishAndReleaseAll();
    }
}
