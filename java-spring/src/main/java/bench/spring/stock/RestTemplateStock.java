package bench.spring.stock;

import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;

import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.client.HttpStatusCodeException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestTemplate;

/**
 * The variant rest-template: the same call with RestTemplate, built by Spring Boot's
 * RestTemplateBuilder on the same request factory and settings as the stack's RestClient (the
 * JDK's HttpClient, timeouts of 1 s, no redirects followed). Only the client's API differs.
 */
@Component
@Profile(RestTemplateStock.PROFILE)
class RestTemplateStock implements StockClient {

	static final String PROFILE = "rest-template";

	private static final HttpEntity<Void> ACCEPT_JSON;

	static {
		HttpHeaders headers = new HttpHeaders();
		headers.setAccept(List.of(MediaType.APPLICATION_JSON));
		ACCEPT_JSON = new HttpEntity<>(headers);
	}

	private final RestTemplate rest;

	private final Duration readTimeout;

	RestTemplateStock(RestTemplateBuilder builder, StockUrl url,
			@Value("${spring.http.clients.read-timeout}") Duration readTimeout) {
		this.rest = builder.baseUri(url.toString()).build();
		this.readTimeout = readTimeout;
	}

	@Override
	public int quantity(long itemId) {
		ResponseEntity<JsonNode> response;
		long started = System.nanoTime();
		try {
			response = this.rest.exchange("/stock/{id}", HttpMethod.GET, ACCEPT_JSON, JsonNode.class, itemId);
		}
		catch (HttpStatusCodeException ex) {
			// RestTemplate's error handler throws for every 4xx and 5xx, the upstream's 404 included.
			throw StockAnswers.notOk(itemId, ex.getStatusCode());
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
		if (!response.getStatusCode().isSameCodeAs(HttpStatus.OK)) {
			throw StockAnswers.notOk(itemId, response.getStatusCode());
		}
		return StockAnswers.quantity(itemId, response.getBody());
	}

}
