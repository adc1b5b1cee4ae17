package bench.catalog.stock;

import bench.catalog.error.UpstreamException;
import bench.catalog.error.UpstreamException.Kind;
import bench.catalog.json.JsonParseException;
import bench.catalog.json.JsonParser;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The stock upstream ({@code STOCK_URL}) through the JDK's {@link HttpClient}: {@code GET
 * /stock/{id}}, asked once, its answer turned into a quantity or an {@link UpstreamException}.
 * One per process, created at start and closed at shutdown.
 *
 * <p>{@link #quantity} blocks: every exchange of the server runs on a virtual thread of its own,
 * which parks while the upstream answers and holds no platform thread meanwhile. The client's own
 * work (connecting, reading answers, completing calls) stays on its default executor, a cached
 * pool of platform threads: on the virtual threads' one carrier (one processor) it queued behind
 * the exchanges, and far more of a first burst of 200 calls timed out (README.md).
 */
public final class StockClient implements AutoCloseable {

    /** spec/API.md: a connection within 1 s, response headers within 1 s of the request. */
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    /** A quantity fits in a few dozen bytes; an answer past this is no answer of the upstream's. */
    static final int MAX_ANSWER = 64 * 1024;

    static {
        // The client tries a refused connection a second time unless told not to: no retries.
        if (System.getProperty("jdk.httpclient.disableRetryConnect") == null) {
            System.setProperty("jdk.httpclient.disableRetryConnect", "true");
        }
    }

    private final String base;
    private final HttpClient client;

    public StockClient(URI baseUrl) {
        this.base = baseUrl + "/stock/";
        this.client = HttpClient.newBuilder()
                // Plain HTTP/1.1 keep-alive: no h2c upgrade offer on every request.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY)
                .sslContext(noTls())
                .build();
    }

    /**
     * STOCK_URL is plain http (Config refuses any other scheme), yet without a context of its own
     * the client loads the JDK's default SSLContext and its trust store when it is built: 1.4 MiB
     * of heap that no call uses. This context trusts no certificate at all, which is right for a
     * client that never speaks TLS.
     */
    private static SSLContext noTls() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[0], new TrustManager[0], null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no TLS context", e);
        }
    }

    /** The item's quantity; an {@link UpstreamException} when the upstream has none to give. */
    public int quantity(long itemId) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + itemId))
                .timeout(TIMEOUT)
                .header("Accept", "application/json")
                .build();
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, BodyHandlers.limiting(BodyHandlers.ofByteArray(), MAX_ANSWER));
        } catch (HttpTimeoutException e) {
            throw new UpstreamException(Kind.TIMEOUT, e.toString(), e);
        } catch (IOException e) {
            throw new UpstreamException(Kind.BAD_ANSWER, "no answer: " + e, e);
        }
        return switch (response.statusCode()) {
            case 200 -> quantity(response.body());
            case 404 -> throw new UpstreamException(Kind.NO_RECORD, "no stock record for item " + itemId, null);
            default -> throw new UpstreamException(Kind.BAD_ANSWER, "status " + response.statusCode(), null);
        };
    }

    /**
     * {@code quantity} of a JSON object, a JSON integer literal from 0 to 2,147,483,647 (not
     * {@code 5.0}, {@code 1e2} or {@code "5"}); other members are ignored, whatever the
     * Content-Type says.
     */
    static int quantity(byte[] body) {
        Object answer;
        try {
            answer = JsonParser.parse(body, body.length, Set.of("quantity"));
        } catch (JsonParseException e) {
            throw new UpstreamException(Kind.BAD_ANSWER, "the answer is not JSON: " + e.getMessage(), null);
        }
        if (!(answer instanceof Map<?, ?> object)) {
            throw new UpstreamException(Kind.BAD_ANSWER, "the answer is not a JSON object", null);
        }
        if (object.get("quantity") instanceof BigDecimal quantity && quantity.scale() == 0
                && quantity.signum() >= 0 && quantity.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            return quantity.intValueExact();
        }
        throw new UpstreamException(Kind.BAD_ANSWER,
                "quantity " + object.get("quantity") + " is not an integer from 0 to 2147483647", null);
    }

    /** Closes the pooled connections once the calls in flight are done. */
    @Override
    public void close() {
        client.close();
    }
}
