package bench.spring.stock;

import java.net.http.HttpTimeoutException;
import java.time.Duration;

import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * The stack's client: Spring's RestClient, from the builder Spring Boot configures
 * ({@code spring.http.clients.*} in application.properties: the JDK's HttpClient, its connection
 * pool, timeouts of 1 s, no redirects followed; {@link StockConfiguration}).
 */
@Component
@Profile("!" + RestTemplateStock.PROFILE + " & !" + WebClientStock.PROFILE)
class RestClientStock implements StockClient {

	private final RestClient client;

	private final Duration readTimeout;

	RestClientStock(RestClient.Builder builder, StockUrl url,
			@Value("${spring.http.clients.read-timeout}") Duration readTimeout) {
		this.client = builder.baseUrl(url.toString()).build();
		this.readTimeout = readTimeout;
	}

	@Override
	public int quantity(long itemId) {
		JsonNode body;
		long started = System.nanoTime();
		try {
			body = this.client.get()
				.uri("/stock/{id}", itemId)
				.accept(MediaType.APPLICATION_JSON)
				.retrieve()
				.onStatus(status -> !status.isSameCodeAs(HttpStatus.OK), (request, response) -> {
					throw StockAnswers.notOk(itemId, response.getStatusCode());
				})
				.body(JsonNode.class);
		}
		catch (ResourceAccessException ex) {
			// The JDK's client reports both of its timeouts (connect, response) as
			// HttpTimeoutException; Spring's read timeout bounds the whole exchange, and when it passes
			// after the headers it closes the body under the reader (an IOException here, or a body
			// that could not be read).
			throw StockAnswers.noAnswer(itemId, ex,
					ex.getCause() instanceof HttpTimeoutException || StockAnswers.outlasted(started, this.readTimeout));
		}
		catch (RestClientException ex) {
			throw StockAnswers.unreadable(itemId, ex, StockAnswers.outlasted(started, this.readTimeout));
		}
		return StockAnswers.quantity(itemId, body);
	}

}
