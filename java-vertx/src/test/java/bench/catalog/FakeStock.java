package bench.catalog;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stock upstream in the test's Vert.x: {@code GET /stock/{id}} answers as the test scripted the
 * id (404 otherwise), and every request is recorded. Each test takes ids of its own
 * ({@link #newId}), so that tests never read each other's requests.
 */
public final class FakeStock {

    /** One request the client sent: its path and Accept header. */
    public record Asked(String path, String accept) {
    }

    private final Vertx vertx;
    private final HttpServer server;
    private final Map<String, Handler<HttpServerRequest>> scripts = new ConcurrentHashMap<>();
    private final List<Asked> asked = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong(1_000_000_000_000L);

    private FakeStock(Vertx vertx) {
        this.vertx = vertx;
        this.server = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").await();
    }

    public static FakeStock start(Vertx vertx) {
        return new FakeStock(vertx);
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.actualPort());
    }

    public long newId() {
        return ids.incrementAndGet();
    }

    public void script(long id, Handler<HttpServerRequest> answer) {
        scripts.put(Long.toString(id), answer);
    }

    public List<Asked> asked(long id) {
        return asked.stream().filter(a -> a.path().equals("/stock/" + id)).toList();
    }

    public int askedInAll() {
        return asked.size();
    }

    public static Handler<HttpServerRequest> json(int status, String body) {
        return body("application/json", status, body);
    }

    /** The real upstream's 200, with a member the client must ignore. */
    public static Handler<HttpServerRequest> quantity(long id, String quantity) {
        return json(200, "{\"itemId\":" + id + ",\"quantity\":" + quantity + ",\"warehouse\":\"test\"}");
    }

    public static Handler<HttpServerRequest> body(String contentType, int status, String body) {
        return request -> request.response().setStatusCode(status).putHeader("Content-Type", contentType).end(body);
    }

    public static Handler<HttpServerRequest> redirect(String location) {
        return request -> request.response().setStatusCode(302).putHeader("Location", location).end();
    }

    /** Closes the connection without a byte of answer. */
    public static Handler<HttpServerRequest> drop() {
        return request -> request.connection().close();
    }

    /** Reads the request and never answers it. */
    public static Handler<HttpServerRequest> hang() {
        return request -> { };
    }

    public Handler<HttpServerRequest> after(long delayMs, Handler<HttpServerRequest> answer) {
        return request -> vertx.setTimer(delayMs, fired -> answer.handle(request));
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        asked.add(new Asked(path, request.getHeader("Accept")));
        scripts.getOrDefault(path.substring("/stock/".length()), json(404, "{\"status\":404,\"detail\":\"no such item\"}"))
                .handle(request);
    }

    public void close() {
        server.close().await();
    }
}
