package bench.datarest.stock;

import java.net.http.HttpTimeoutException;
import java.time.Duration;

import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * The stock service, {@code GET {STOCK_URL}/stock/{id}}, asked once per call with Spring's
 * RestClient, from the builder Spring Boot configures ({@code spring.http.clients.*} in
 * application.properties: the JDK's HttpClient and its connection pool, timeouts of 1 s, no
 * redirects followed; {@link StockConfiguration}). What its answers mean is spec/API.md's ("The
 * stock of an item"): a 200 whose body is a JSON object with a {@code quantity} that is a JSON
 * integer from 0 to 2,147,483,647, a 404, and anything else a 502; silence past a timeout a 504.
 */
@Component
class StockClient {

	private final RestClient client;

	private final Duration readTimeout;

	StockClient(RestClient.Builder builder, StockUrl url,
			@Value("${spring.http.clients.read-timeout}") Duration readTimeout) {
		this.client = builder.baseUrl(url.toString()).build();
		this.readTimeout = readTimeout;
	}

	/**
	 * The item's quantity as the stock service answers it.
	 * @throws StockNotFoundException the stock service has no record of the item
	 * @throws UpstreamFailedException no answer, or one that is not a stock record
	 * @throws UpstreamTimeoutException no connection or no answer within the timeouts
	 */
	int quantity(long itemId) {
		JsonNode body;
		long started = System.nanoTime();
		try {
			body = this.client.get()
				.uri("/stock/{id}", itemId)
				.accept(MediaType.APPLICATION_JSON)
				.retrieve()
				.onStatus(status -> !status.isSameCodeAs(HttpStatus.OK), (request, response) -> {
					throw notOk(itemId, response.getStatusCode());
				})
				.body(JsonNode.class);
		}
		catch (ResourceAccessException ex) {
			// The JDK's client reports both of its timeouts (connect, response) as
			// HttpTimeoutException; Spring's read timeout bounds the whole exchange, and when it passes
			// after the headers it closes the body under the reader (an IOException, or a body that
			// could not be read).
			if (ex.getCause() instanceof HttpTimeoutException || outlasted(started)) {
				throw noAnswerInTime(itemId, ex);
			}
			throw new UpstreamFailedException("the stock service could not be reached for item " + itemId, ex);
		}
		catch (RestClientException ex) {
			if (outlasted(started)) {
				throw noAnswerInTime(itemId, ex);
			}
			throw new UpstreamFailedException("the stock service's answer for item " + itemId + " could not be read as JSON", ex);
		}
		return quantity(itemId, body);
	}

	private static UpstreamTimeoutException noAnswerInTime(long itemId, Throwable cause) {
		return new UpstreamTimeoutException("the stock service did not answer in time for item " + itemId, cause);
	}

	private boolean outlasted(long startedNanos) {
		return System.nanoTime() - startedNanos >= this.readTimeout.toNanos();
	}

	private static RuntimeException notOk(long itemId, HttpStatusCode status) {
		if (status.isSameCodeAs(HttpStatus.NOT_FOUND)) {
			return new StockNotFoundException(itemId);
		}
		return new UpstreamFailedException("the stock service answered " + status.value() + " for item " + itemId);
	}

	/**
	 * The quantity in a 200's body (null when the body was empty). A fraction ({@code 1.5}, also
	 * {@code 1.0}), a string, a boolean or a number out of range is no quantity.
	 */
	private static int quantity(long itemId, JsonNode body) {
		if (body == null || !body.isObject()) {
			throw new UpstreamFailedException("the stock service's answer for item " + itemId + " is not a JSON object");
		}
		JsonNode quantity = body.get("quantity");
		if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToInt() || quantity.intValue() < 0) {
			throw new UpstreamFailedException("the stock service's answer for item " + itemId + " has no valid quantity");
		}
		return quantity.intValue();
	}

}
