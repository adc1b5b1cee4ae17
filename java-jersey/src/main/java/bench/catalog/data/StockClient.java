package bench.catalog.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.InvocationCallback;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.glassfish.jersey.apache5.connector.Apache5ClientProperties;
import org.glassfish.jersey.apache5.connector.Apache5ConnectorProvider;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;

/**
 * The stock upstream ({@code STOCK_URL}) through the JAX-RS client: {@code GET /stock/{id}}, asked
 * once (no retries, redirects not followed), its answer turned into a quantity or a domain error.
 * One per process, created at start and closed at shutdown.
 *
 * <p>Jersey's Apache HttpClient 5 connector, for its connection pool: Jersey's default connector
 * (HttpURLConnection) keeps five idle connections per host and closes the rest after each call.
 * That connector blocks the thread that calls it, so the asynchronous calls run on virtual
 * threads, which a blocked socket read does not hold: neither Grizzly's workers (the resource is
 * suspended meanwhile) nor a platform thread wait for the upstream.
 */
public final class StockClient implements AutoCloseable {

    /** spec/API.md: a connection within 1 s, response headers within 1 s of the request. */
    static final Duration TIMEOUT = Duration.ofSeconds(1);

    /**
     * Connections the pool keeps to the upstream. The outbound scenario puts hundreds of requests
     * in flight; HttpClient's defaults (5 per host, 25 in all) would queue them for a connection.
     */
    static final int MAX_CONNECTIONS = 1024;

    /**
     * A pooled connection idle for longer is checked before it is reused. A blocking client notices
     * that the upstream closed a connection only when it next uses it (it would answer that request
     * 502); the check costs a 1 ms read, so connections in steady use skip it.
     */
    private static final TimeValue CHECK_AFTER_IDLE = TimeValue.ofSeconds(1);

    private final ExecutorService calls;
    private final Client client;
    private final WebTarget stock;
    private final ObjectMapper mapper;

    public StockClient(URI baseUrl, ObjectMapper mapper) {
        this.mapper = mapper;
        PoolingHttpClientConnectionManager connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom().setValidateAfterInactivity(CHECK_AFTER_IDLE).build())
                .build();
        ClientConfig config = new ClientConfig()
                .connectorProvider(new Apache5ConnectorProvider())
                .property(Apache5ClientProperties.CONNECTION_MANAGER, connections)
                // A request that finds every pooled connection busy waits this long for one, not 3 minutes.
                .property(Apache5ClientProperties.REQUEST_CONFIG,
                        RequestConfig.custom().setConnectionRequestTimeout(Timeout.of(TIMEOUT)).build())
                // HttpClient's default strategy retries after an I/O error and after a 429 or 503.
                .property(Apache5ClientProperties.RETRY_STRATEGY,
                        new DefaultHttpRequestRetryStrategy(0, TimeValue.ZERO_MILLISECONDS))
                .property(Apache5ClientProperties.DISABLE_COOKIES, true)
                .property(ClientProperties.FOLLOW_REDIRECTS, false);
        calls = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("stock-", 0).factory());
        client = ClientBuilder.newBuilder()
                .withConfig(config)
                .connectTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .executorService(calls)
                .build();
        stock = client.target(baseUrl).path("stock/{id}");
    }

    /**
     * The item's quantity, or a {@link StockNotFoundException}, {@link UpstreamFailedException} or
     * {@link UpstreamTimeoutException}: the stage fails with the domain error itself, unwrapped.
     */
    public CompletionStage<Integer> quantity(long itemId) {
        CompletableFuture<Integer> quantity = new CompletableFuture<>();
        stock.resolveTemplate("id", itemId).request(MediaType.APPLICATION_JSON_TYPE).async()
                .get(new InvocationCallback<Response>() {
                    @Override
                    public void completed(Response response) {
                        try (response) {
                            quantity.complete(read(itemId, response));
                        } catch (DomainException e) {
                            quantity.completeExceptionally(e);
                        } catch (RuntimeException e) {
                            // The body could not be read: the connection broke or stalled mid-answer.
                            quantity.completeExceptionally(unanswered(e));
                        }
                    }

                    @Override
                    public void failed(Throwable failure) {
                        quantity.completeExceptionally(unanswered(failure));
                    }
                });
        return quantity;
    }

    private int read(long itemId, Response response) {
        return switch (response.getStatus()) {
            case 200 -> quantity(response.readEntity(byte[].class));
            case 404 -> throw new StockNotFoundException(itemId);
            default -> throw new UpstreamFailedException("status " + response.getStatus(), null);
        };
    }

    /**
     * {@code quantity} of a JSON object, a JSON integer from 0 to 2,147,483,647; other members are
     * ignored. Parsed from the bytes whatever the Content-Type says, so that the rule is the body's.
     */
    int quantity(byte[] body) {
        JsonNode answer;
        try {
            answer = mapper.readTree(body);
        } catch (IOException e) {
            throw new UpstreamFailedException("the answer is not JSON", null);
        }
        if (!answer.isObject()) {
            throw new UpstreamFailedException("the answer is not a JSON object", null);
        }
        JsonNode quantity = answer.path("quantity");
        if (!quantity.isIntegralNumber() || !quantity.canConvertToInt() || quantity.intValue() < 0) {
            throw new UpstreamFailedException("quantity " + quantity + " is not an integer from 0 to 2147483647", null);
        }
        return quantity.intValue();
    }

    /** A timeout (no connection, or no answer, in time: 504) or any other failure to get an answer (502). */
    private static DomainException unanswered(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedIOException) {
                return new UpstreamTimeoutException(failure);
            }
        }
        return new UpstreamFailedException("no answer", failure);
    }

    /** Closes the pooled connections; calls in flight fail, and their virtual threads end. */
    @Override
    public void close() {
        client.close();
        calls.close();
    }
}
