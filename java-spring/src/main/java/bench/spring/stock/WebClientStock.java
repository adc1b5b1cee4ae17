package bench.spring.stock;

import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.timeout.ReadTimeoutException;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.context.annotation.Profile;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.codec.CodecException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientException;
import org.springframework.web.reactive.function.client.WebClientRequestException;

/**
 * The variant webclient-blocking: the same call with WebClient on Reactor Netty, blocking the
 * request's thread (a virtual thread) until the answer, as Spring MVC code calls WebClient. Spring
 * Boot builds it from the same settings (timeouts of 1 s, no redirects followed) on the connection
 * pool of {@link WebClientStockConfiguration}.
 */
@Component
@Profile(WebClientStock.PROFILE)
class WebClientStock implements StockClient {

	static final String PROFILE = "webclient-blocking";

	private final WebClient client;

	WebClientStock(WebClient.Builder builder, StockUrl url) {
		this.client = builder.baseUrl(url.toString()).build();
	}

	@Override
	public int quantity(long itemId) {
		JsonNode body;
		try {
			body = this.client.get()
				.uri("/stock/{id}", itemId)
				.accept(MediaType.APPLICATION_JSON)
				.retrieve()
				.onStatus(status -> !status.isSameCodeAs(HttpStatus.OK),
						response -> Mono.error(StockAnswers.notOk(itemId, response.statusCode())))
				.bodyToMono(JsonNode.class)
				.block();
		}
		catch (WebClientRequestException ex) {
			// Reactor Netty's connect timeout and its response timeout (no answer within 1 s).
			boolean timedOut = ex.getCause() instanceof ConnectTimeoutException
					|| ex.getCause() instanceof ReadTimeoutException;
			throw StockAnswers.noAnswer(itemId, ex, timedOut);
		}
		catch (WebClientException | CodecException ex) {
			// A body WebClient cannot decode, a connection closed in the middle of it, or the response
			// timeout passing while it was read (then Reactor Netty's ReadTimeoutException is the root).
			throw StockAnswers.unreadable(itemId, ex,
					NestedExceptionUtils.getMostSpecificCause(ex) instanceof ReadTimeoutException);
		}
		return StockAnswers.quantity(itemId, body);
	}

}
