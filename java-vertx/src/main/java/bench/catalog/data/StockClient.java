package bench.catalog.data;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.util.concurrent.TimeoutException;

/**
 * The stock upstream ({@code STOCK_URL}) through Vert.x's WebClient: {@code GET /stock/{id}},
 * asked once (the client has no retries), its answer turned into a quantity or a failed future
 * with {@link StockNotFoundException}, {@link UpstreamFailedException} or
 * {@link UpstreamTimeoutException}. Nothing here blocks.
 */
public final class StockClient {

    /**
     * spec/API.md: a connection within 1 s, response headers within 1 s of the request. Per request
     * it bounds getting a connection (from the pool or a new one) and then each wait for data.
     */
    static final long TIMEOUT_MS = 1000;

    /**
     * Keep-alive connections to the upstream. The outbound scenario puts hundreds of calls in
     * flight; Vert.x's default of 5 would queue them past the 1 s timeout.
     */
    static final int MAX_CONNECTIONS = 1024;

    private final WebClient client;

    private StockClient(WebClient client) {
        this.client = client;
    }

    /**
     * The client of one verticle instance. Every instance gets the same shared WebClient, as they
     * get the same database pool: one client and one pool of connections for the process, closed
     * when the last instance closes its reference.
     */
    public static StockClient create(Vertx vertx, URI stockUrl) {
        return new StockClient(WebClient.create(vertx,
                new WebClientOptions()
                        .setShared(true)
                        .setName("stock")
                        .setDefaultHost(stockUrl.getHost())
                        .setDefaultPort(stockUrl.getPort())
                        .setConnectTimeout((int) TIMEOUT_MS)
                        // WebClient follows redirects by default; a redirect is an answer like any other status.
                        .setFollowRedirects(false),
                new PoolOptions().setHttp1MaxSize(MAX_CONNECTIONS)));
    }

    /** Gives back this instance's reference to the shared client; the last one closes its connections. */
    public void close() {
        client.close();
    }

    public Future<Integer> quantity(long itemId) {
        return client.get("/stock/" + itemId)
                .putHeader("Accept", "application/json")
                .timeout(TIMEOUT_MS)
                .send()
                .recover(failure -> Future.failedFuture(unanswered(failure)))
                .compose(response -> switch (response.statusCode()) {
                    case 200 -> Future.succeededFuture(quantity(response));
                    case 404 -> Future.failedFuture(new StockNotFoundException(itemId));
                    default -> Future.failedFuture(new UpstreamFailedException("status " + response.statusCode(), null));
                });
    }

    /**
     * {@code quantity} of a JSON object, a JSON integer literal from 0 to 2,147,483,647 (Jackson
     * reads {@code 5.0} and {@code 1e2} as decimals, a larger integer as a Long); other members are
     * ignored, whatever the Content-Type says.
     */
    static int quantity(HttpResponse<Buffer> response) {
        Buffer body = response.body();
        Object answer;
        try {
            answer = body == null ? null : Json.decodeValue(body);
        } catch (DecodeException e) {
            throw new UpstreamFailedException("the answer is not JSON", null);
        }
        if (!(answer instanceof JsonObject object)) {
            throw new UpstreamFailedException("the answer is not a JSON object", null);
        }
        if (object.getValue("quantity") instanceof Integer quantity && quantity >= 0) {
            return quantity;
        }
        throw new UpstreamFailedException("quantity " + object.getValue("quantity")
                + " is not an integer from 0 to 2147483647", null);
    }

    /** A timeout (no connection, or no data, in time: 504) or any other failure to get an answer (502). */
    private static RuntimeException unanswered(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            // Netty's connect timeout is a ConnectException, like a refused connection: told apart first.
            if (cause instanceof TimeoutException || cause instanceof ConnectTimeoutException) {
                return new UpstreamTimeoutException(failure);
            }
        }
        return new UpstreamFailedException("no answer: " + failure, failure);
    }
}
