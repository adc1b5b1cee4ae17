package bench.webflux.config;

import java.time.Duration;

import io.netty.channel.ChannelOption;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The one WebClient of the process, for the stock upstream of {@code STOCK_URL}: Reactor Netty's
 * HttpClient on the server's own event loops (Reactor Netty's global resources, which Boot's
 * server uses too), over a connection pool of its own. The pool is built here because the shared
 * one WebClient would otherwise take holds max(processors, 8) × 2 connections, 16 under
 * jvm.options' one processor, where the outbound scenario keeps hundreds of requests in flight.
 */
@Configuration(proxyBeanMethods = false)
public class StockClientConfiguration {

	/** Kept-alive connections to the upstream, at most; a request beyond them waits for one. */
	static final int MAX_CONNECTIONS = 512;

	/** To open a connection, to wait for a pooled one, and from the request sent to the response's headers. */
	static final Duration TIMEOUT = Duration.ofSeconds(1);

	/** Closed with the context, after the server has let its in-flight requests finish. */
	@Bean(destroyMethod = "dispose")
	ConnectionProvider stockConnections() {
		return ConnectionProvider.builder("stock")
			.maxConnections(MAX_CONNECTIONS)
			// No cap on the requests waiting for a connection: each is one of this server's own
			// requests, and none waits longer than the timeout.
			.pendingAcquireMaxCount(-1)
			.pendingAcquireTimeout(TIMEOUT)
			.build();
	}

	@Bean
	WebClient stockWebClient(WebClient.Builder builder, ConnectionProvider stockConnections,
			@Value("${app.stock.url}") String stockUrl) {
		HttpClient http = HttpClient.create(stockConnections)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) TIMEOUT.toMillis())
			.responseTimeout(TIMEOUT)
			// Reactor Netty otherwise sends a request again once when its pooled connection turns
			// out closed before the request went out; the contract wants no retries.
			.disableRetry(true)
			.followRedirect(false);
		return builder.clientConnector(new ReactorClientHttpConnector(http))
			.baseUrl(StockUrl.parse(stockUrl).baseUrl())
			.defaultHeader(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE)
			.build();
	}

}
