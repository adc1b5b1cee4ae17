package bench.catalog.stock;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
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

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A stock upstream in the test's process: {@code GET /stock/{id}} answers as the test scripted the
 * id (404 otherwise) and records the request. Every test takes ids of its own ({@link #newId}).
 */
final class FakeUpstream implements AutoCloseable {

    @FunctionalInterface
    interface Answer {
        void answer(HttpExchange exchange) throws IOException, InterruptedException;
    }

    /** One request the client sent: its path and Accept header. */
    record Asked(String path, String accept) {
    }

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Answer> scripts = new ConcurrentHashMap<>();
    private final List<Asked> asked = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong ids = new AtomicLong(1_000_000_000_000L);

    FakeUpstream() throws IOException {
        // A backlog for a burst of connections: the default of 50 drops SYNs, retried only after 1 s.
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(handlers);
        server.createContext("/stock/", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    long newId() {
        return ids.incrementAndGet();
    }

    void script(long id, Answer answer) {
        scripts.put(Long.toString(id), answer);
    }

    List<Asked> asked(long id) {
        return asked.stream().filter(a -> a.path().equals("/stock/" + id)).toList();
    }

    int askedInAll() {
        return asked.size();
    }

    static Answer json(int status, String body) {
        return body("application/json", status, body);
    }

    /** The real upstream's 200, with a member the client must ignore. */
    static Answer quantity(long id, String quantity) {
        return json(200, "{\"itemId\":" + id + ",\"quantity\":" + quantity + ",\"warehouse\":\"test\"}");
    }

    static Answer body(String contentType, int status, String body) {
        byte[] bytes = body.getBytes(UTF_8);
        return exchange -> {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        };
    }

    static Answer redirect(String location) {
        return exchange -> {
            exchange.getResponseHeaders().set("Location", location);
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        };
    }

    /** Closes the connection without a byte of answer (the JDK's server does, for an exchange closed unanswered). */
    static Answer drop() {
        return HttpExchange::close;
    }

    /** Reads the request and never answers, until the fake closes. */
    Answer hang() {
        return exchange -> closed.await(30, TimeUnit.SECONDS);
    }

    Answer after(Duration delay, Answer answer) {
        return exchange -> {
            closed.await(delay.toMillis(), TimeUnit.MILLISECONDS);
            answer.answer(exchange);
        };
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        asked.add(new Asked(path, exchange.getRequestHeaders().getFirst("Accept")));
        Answer answer = scripts.getOrDefault(path.substring("/stock/".length()),
                json(404, "{\"status\":404,\"detail\":\"no such item\"}"));
        try {
            answer.answer(exchange);
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
