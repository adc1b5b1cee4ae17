package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

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

/** The idle handler's events reach Vert.x (which closes the connection) only between requests. */
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
}
