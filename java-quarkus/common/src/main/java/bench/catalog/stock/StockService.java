package bench.catalog.stock;

import bench.catalog.http.StockView;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.ConnectTimeoutException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Asks the stock upstream once per request and reads its answer by spec/API.md, "The stock of
 * an item": 200 with an integer {@code quantity} in range, 404, or anything else a failure.
 */
@ApplicationScoped
public class StockService {

    private static final long MAX_QUANTITY = Integer.MAX_VALUE;

    private final StockClient client;
    private final ObjectMapper json;

    public StockService(@RestClient StockClient client, ObjectMapper json) {
        this.client = client;
        this.json = json;
    }

    public Uni<StockView> stockOf(long itemId) {
        return client.quantity(itemId)
                .onFailure().transform(StockService::failure)
                .map(response -> read(itemId, response));
    }

    private StockView read(long itemId, Response response) {
        try (response) {
            int status = response.getStatus();
            if (status == 404) {
                throw new StockNotFoundException(itemId);
            }
            if (status != 200) {
                throw new StockUpstreamException("it answered " + status);
            }
            return new StockView(itemId, quantity(response.readEntity(String.class)));
        }
    }

    private int quantity(String body) {
        JsonNode answer;
        try {
            answer = json.readTree(body);
        } catch (JacksonException e) {
            throw new StockUpstreamException("its answer is not JSON");
        }
        JsonNode quantity = answer == null ? null : answer.get("quantity");
        if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToLong()
                || quantity.longValue() < 0 || quantity.longValue() > MAX_QUANTITY) {
            throw new StockUpstreamException("its answer has no integer quantity from 0 to " + MAX_QUANTITY);
        }
        return quantity.intValue();
    }

    /** A connect or response timeout is a 504; every other failure to get an answer a 502. */
    private static RuntimeException failure(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException || cause instanceof ConnectTimeoutException) {
                return new StockUpstreamTimeoutException();
            }
        }
        return new StockUpstreamException(error.toString());
    }
}
