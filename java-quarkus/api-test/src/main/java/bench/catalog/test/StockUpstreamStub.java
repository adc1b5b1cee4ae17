package bench.catalog.test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A stock upstream on the JDK's HTTP server, on a free port of the loopback interface, started
 * before the application (a Quarkus test resource) and handed to its REST client as STOCK_URL
 * would be. Each item id has one scripted answer, so that a test asks for the id of the case it
 * wants and shares no state with the stub (Quarkus may load the two in different class loaders);
 * an id nobody scripted has no record (404), as the real stock service answers an unknown item.
 */
public final class StockUpstreamStub implements QuarkusTestResourceLifecycleManager {

    private final CountDownLatch stopped = new CountDownLatch(1);
    private ExecutorService executor;
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::answer);
        server.setExecutor(executor);
        server.start();
        // With the one trailing '/' the contract tolerates, so that every case goes through it.
        return Map.of("quarkus.rest-client.stock.url", "http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    @Override
    public void stop() {
        stopped.countDown();
        if (server != null) {
            server.stop(0);
        }
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        String id = path.startsWith("/stock/") ? path.substring("/stock/".length()) : "";
        switch (id) {
            // Only to a request that accepts JSON (spec/API.md, "The call").
            case "5" -> {
                String accept = String.valueOf(exchange.getRequestHeaders().getFirst("Accept"));
                if (accept.contains("application/json")) {
                    json(exchange, 200, "{\"itemId\":5,\"quantity\":12,\"warehouse\":\"A\"}");
                } else {
                    json(exchange, 406, "{\"status\":406}");
                }
            }
            case "-3" -> json(exchange, 200, "{\"itemId\":-3,\"quantity\":0}");
            // Its own itemId is not the one asked for: the answer's is the request's.
            case "6" -> json(exchange, 200, "{\"itemId\":7,\"quantity\":2147483647}");
            case "7" -> json(exchange, 500, "{\"status\":500}");
            case "8" -> json(exchange, 503, "{}");
            case "9" -> {
                // Followed, it would be item 5's 200.
                exchange.getResponseHeaders().set("Location", "/stock/5");
                exchange.sendResponseHeaders(302, -1);
                exchange.close();
            }
            case "10" -> json(exchange, 200, "not json");
            case "11" -> json(exchange, 200, "");
            case "12" -> json(exchange, 200, "[{\"quantity\":5}]");
            case "13" -> json(exchange, 200, "{\"quantity\":\"5\"}");
            case "14" -> json(exchange, 200, "{\"quantity\":1.5}");
            case "15" -> json(exchange, 200, "{\"quantity\":-1}");
            case "16" -> json(exchange, 200, "{\"quantity\":2147483648}");
            case "17" -> json(exchange, 200, "{\"quantity\":true}");
            case "18" -> json(exchange, 200, "{\"itemId\":18}");
            case "19" -> json(exchange, 200, "5");
            // The connection closed without a byte of an answer.
            case "20" -> exchange.close();
            // No answer at all, until the stub stops.
            case "22" -> {
                try {
                    stopped.await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
            }
            default -> json(exchange, 404, "{\"status\":404}");
        }
    }

    private static void json(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
