package bench.webflux.stock;

import java.util.concurrent.TimeoutException;

import bench.webflux.error.NotFoundException;
import bench.webflux.error.UpstreamFailedException;
import bench.webflux.error.UpstreamTimeoutException;
import io.netty.channel.ConnectTimeoutException;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The stock upstream: {@code GET {STOCK_URL}/stock/{id}} on the pooled WebClient of
 * {@code StockClientConfiguration}, its answer read into a quantity or a domain error. It never
 * blocks: the request is written and its answer read on Reactor Netty's event loops.
 */
@Component
public class StockClient {

	private final WebClient stock;

	private final JsonMapper json;

	StockClient(WebClient stockWebClient, JsonMapper json) {
		this.stock = stockWebClient;
		this.json = json;
	}

	/**
	 * The quantity the upstream holds for this item id; {@link NotFoundException} when it has no
	 * record of it, {@link UpstreamTimeoutException} when it took no connection or sent no answer
	 * in time, {@link UpstreamFailedException} for any other failure.
	 */
	public Mono<Integer> quantity(long itemId) {
		return this.stock.get()
			.uri("/stock/{id}", itemId)
			.exchangeToMono(response -> read(itemId, response))
			.onErrorMap(error -> !(error instanceof NotFoundException || error instanceof UpstreamFailedException),
					StockClient::translate);
	}

	private Mono<Integer> read(long itemId, ClientResponse response) {
		// Any body of an answer other than 200 is released unread, and the connection kept.
		if (response.statusCode().isSameCodeAs(HttpStatus.NOT_FOUND)) {
			return Mono.error(new NotFoundException("no stock record for item " + itemId));
		}
		if (!response.statusCode().isSameCodeAs(HttpStatus.OK)) {
			return Mono.error(new UpstreamFailedException("the stock service answered " + response.statusCode().value()));
		}
		// The body is judged by what it holds, whatever Content-Type it came with.
		return response.bodyToMono(byte[].class)
			.map(this::readQuantity)
			.switchIfEmpty(Mono.error(() -> invalidRecord(null)));
	}

	/** A JSON object whose {@code quantity} is a JSON integer from 0 to 2^31 - 1; other members are ignored. */
	private int readQuantity(byte[] body) {
		JsonNode record;
		try {
			record = this.json.readTree(body);
		}
		catch (JacksonException ex) {
			throw invalidRecord(ex);
		}
		JsonNode quantity = record.isObject() ? record.get("quantity") : null;
		// An integer token only: 5.0 and 5e0 are numbers with a fraction or exponent, not integers.
		if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToInt() || quantity.intValue() < 0) {
			throw invalidRecord(null);
		}
		return quantity.intValue();
	}

	private static UpstreamFailedException invalidRecord(Throwable cause) {
		return new UpstreamFailedException("the stock service's answer is not a stock record", cause);
	}

	/**
	 * What went wrong on the way: no connection within the connect timeout (Netty's
	 * ConnectTimeoutException), none free in the pool in time (reactor-pool's acquire timeout, a
	 * java.util.concurrent.TimeoutException) or no answer within the response timeout (Netty's
	 * ReadTimeoutException) is a timeout; refused, reset or closed before a whole answer is a failure.
	 */
	private static RuntimeException translate(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConnectTimeoutException || cause instanceof TimeoutException
					|| cause instanceof io.netty.handler.timeout.TimeoutException) {
				return new UpstreamTimeoutException("the stock service did not answer in time", error);
			}
		}
		return new UpstreamFailedException("no answer from the stock service", error);
	}

}
