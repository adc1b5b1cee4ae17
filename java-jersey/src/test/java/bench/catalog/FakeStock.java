package bench.catalog;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stock upstream in the test's own process, on the JDK's HTTP server: {@code GET /stock/{id}}
 * answers as the test scripted that id (404 when it did not), and every request is recorded. Each
 * test takes ids of its own ({@link #newId}), so that tests never read each other's requests.
 */
public final class FakeStock implements AutoCloseable {

    /** What the fake does with one request. */
    @FunctionalInterface
    public interface Answer {
        void answer(HttpExchange exchange, FakeStock fake) throws IOException, InterruptedException;
    }

    /** One request the client sent. */
    public record Asked(String path, String accept) {
    }

    /** Read the request and never answer it, until the fake closes. */
    public static final Answer HANG = (exchange, fake) -> fake.closed.await(30, TimeUnit.SECONDS);

    /** Close the connection without a byte of answer (the JDK's server does so for an exchange closed unanswered). */
    public static final Answer DROP = (exchange, fake) -> exchange.close();

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Answer> scripts = new ConcurrentHashMap<>();
    private final List<Asked> asked = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong ids = new AtomicLong(1_000_000_000_000L + System.nanoTime() % 1_000_000_000L);

    private FakeStock() throws IOException {
        // A backlog for a burst of connections: the default of 50 drops SYNs, retried only after 1 s.
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(handlers);
        server.createContext("/stock/", this::handle);
        server.start();
    }

    public static FakeStock start() throws IOException {
        return new FakeStock();
    }

    /** STOCK_URL of the fake. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public long newId() {
        return ids.incrementAndGet();
    }

    public void script(long id, Answer answer) {
        scripts.put(Long.toString(id), answer);
    }

    /** The requests for one item id, in order. */
    public List<Asked> asked(long id) {
        return asked.stream().filter(a -> a.path().equals("/stock/" + id)).toList();
    }

    public List<Asked> asked() {
        return List.copyOf(asked);
    }

    public static Answer json(int status, String body) {
        return body("application/json", status, body);
    }

    /** The real upstream's 200, with a member the client must ignore. */
    public static Answer quantity(long id, String quantity) {
        return json(200, "{\"itemId\":" + id + ",\"quantity\":" + quantity + ",\"warehouse\":\"test\"}");
    }

    public static Answer body(String contentType, int status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return (exchange, fake) -> {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        };
    }

    public static Answer redirect(String location) {
        return (exchange, fake) -> {
            exchange.getResponseHeaders().set("Location", location);
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        };
    }

    public static Answer after(Duration delay, Answer answer) {
        return (exchange, fake) -> {
            fake.closed.await(delay.toMillis(), TimeUnit.MILLISECONDS);
            answer.answer(exchange, fake);
        };
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        asked.add(new Asked(path, exchange.getRequestHeaders().getFirst("Accept")));
        Answer answer = scripts.getOrDefault(path.substring("/stock/".length()),
                json(404, "{\"status\":404,\"detail\":\"no such item\"}"));
        try {
            answer.answer(exchange, this);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }
}
