package bench.catalog.http;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * The server's executor: every exchange gets its own virtual thread, and how many of them run,
 * wait and are refused at once is bounded (README.md, "Limits").
 *
 * <p>An exchange runs when one of the places is free, and waits for one otherwise. The JDK server
 * gives a connection its buffers when its first exchange runs and keeps them while the connection
 * lives, so a kept-alive connection waiting for a place holds 16 KiB: under a load generator that
 * opens a connection for every request in flight, a queue without a bound filled the heap. So
 * when as many exchanges wait as may, the next one runs at once without a place, to be answered
 * 503 by the router and its connection closed. Refusals have a bound of their own, as a refused
 * client may still be slow to send its headers; beyond it an exchange waits after all.
 */
public final class Admission implements Executor {

    private static final ScopedValue<Boolean> REFUSED = ScopedValue.newInstance();

    private final ExecutorService threads;
    private final Semaphore places;
    private final Semaphore waiting;
    private final Semaphore refusals;

    public Admission(int places, int waiting, int refusals, ExecutorService threads) {
        this.threads = threads;
        this.places = new Semaphore(places);
        this.waiting = new Semaphore(waiting);
        this.refusals = new Semaphore(refusals);
    }

    /** Whether the exchange on this thread was admitted only to be refused. */
    static boolean refused() {
        return REFUSED.isBound();
    }

    /** Exchanges waiting for a place now (an estimate, as {@link Semaphore#getQueueLength} is). */
    int queued() {
        return places.getQueueLength();
    }

    @Override
    public void execute(Runnable exchange) {
        threads.execute(() -> admit(exchange));
    }

    private void admit(Runnable exchange) {
        if (!places.tryAcquire()) {
            boolean queued = waiting.tryAcquire();
            if (!queued && refusals.tryAcquire()) {
                try {
                    ScopedValue.where(REFUSED, Boolean.TRUE).run(exchange);
                } finally {
                    refusals.release();
                }
                return;
            }
            try {
                places.acquire();
            } catch (InterruptedException stopping) {
                return;
            } finally {
                if (queued) {
                    waiting.release();
                }
            }
        }
        try {
            exchange.run();
        } finally {
            places.release();
        }
    }
}
