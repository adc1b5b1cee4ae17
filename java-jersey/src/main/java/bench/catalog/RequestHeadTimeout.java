package bench.catalog;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.http.HttpHeader;
import org.glassfish.grizzly.http.HttpProbe;

/**
 * The contract's limit on a request's head (spec/API.md, "Overload and slow clients"): a
 * connection whose request line and headers have not all arrived 10 s after their first bytes
 * were read is closed, without an answer. Grizzly has no such timeout; its keep-alive idle timeout
 * also runs while a connection waits for a worker to read it, so at 10 s a burst the server
 * itself was slow to read lost connections whose clients had sent everything (README.md, "Limits").
 * This counts only what the client is slow to send: from the first bytes of a head the HTTP codec
 * has read to the head parsed whole, as the codec's probe events tell, checked four times a second.
 */
final class RequestHeadTimeout extends HttpProbe.Adapter {

    /** Where a connection is: waiting for a request's head, or in a request (its body, its answer). */
    private static final class State {
        volatile boolean awaitingHead = true;
        /** When the first bytes of the awaited head were read; 0 while none have been. */
        volatile long headBegunAt;
    }

    private final long limitNanos;
    private final Map<Connection<?>, State> connections = new ConcurrentHashMap<>();

    /**
     * How often overdue heads are looked for. The codec reads a connection's first bytes a moment
     * after the client sent them when 1,500 connect at once; with a check once a second, such slow
     * clients were closed 10.84–11.03 s after their first byte on a fresh machine, near the 11.5 s
     * the resilience case allows.
     */
    private static final long CHECK_INTERVAL_MILLIS = 250;

    /** Checks on a daemon thread of its own, which ends with the process. */
    RequestHeadTimeout(Duration limit) {
        this.limitNanos = limit.toNanos();
        ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "request-head-timeout");
            thread.setDaemon(true);
            return thread;
        });
        checker.scheduleWithFixedDelay(this::closeOverdue, CHECK_INTERVAL_MILLIS, CHECK_INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    // HttpProbe declares its Connection parameters raw.
    @Override
    @SuppressWarnings("rawtypes")
    public void onDataReceivedEvent(Connection connection, Buffer buffer) {
        State state = connections.computeIfAbsent(connection, opened -> new State());
        if (state.awaitingHead && state.headBegunAt == 0) {
            state.headBegunAt = System.nanoTime();
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void onHeaderParseEvent(Connection connection, HttpHeader header, int size) {
        State state = connections.get(connection);
        if (state != null && header.isRequest()) {
            state.awaitingHead = false;
            state.headBegunAt = 0;
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void onHeaderSerializeEvent(Connection connection, HttpHeader header, Buffer buffer) {
        // The answer's head is written: what the client sends next begins its next request.
        State state = connections.get(connection);
        if (state != null) {
            state.awaitingHead = true;
        }
    }

    /** Closes the connections whose head is overdue, and forgets those closed meanwhile. */
    private void closeOverdue() {
        long now = System.nanoTime();
        connections.forEach((connection, state) -> {
            long begun = state.headBegunAt;
            if (!connection.isOpen()) {
                connections.remove(connection);
            } else if (begun != 0 && now - begun > limitNanos) {
                connections.remove(connection);
                connection.closeSilently();
            }
        });
    }
}
