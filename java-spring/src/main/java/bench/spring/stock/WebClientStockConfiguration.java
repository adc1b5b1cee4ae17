package bench.spring.stock;

import java.time.Duration;

import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Reactor Netty's resources for the variant webclient-blocking, created with the context and
 * disposed with it. Reactor Netty's global pool, and Spring's own resource factory, hold 500
 * connections and refuse a request once 1,000 wait: just below the 512 requests in flight the
 * contract asks a stack's pool to take (spec/API.md).
 */
@Configuration(proxyBeanMethods = false)
@Profile(WebClientStock.PROFILE)
class WebClientStockConfiguration {

	private static final int MAX_CONNECTIONS = 512;

	@Bean
	ReactorResourceFactory stockResources() {
		ReactorResourceFactory resources = new ReactorResourceFactory();
		resources.setUseGlobalResources(false);
		// Past MAX_CONNECTIONS in flight, requests wait for a connection rather than fail at once.
		resources.setConnectionProviderSupplier(() -> ConnectionProvider.builder("stock")
			.maxConnections(MAX_CONNECTIONS)
			.pendingAcquireMaxCount(-1)
			.build());
		// Its event loops wait 2 s for more work before they stop by default; at shutdown Tomcat
		// has already finished every request.
		resources.setShutdownQuietPeriod(Duration.ZERO);
		return resources;
	}

	@Bean
	ClientHttpConnectorBuilderCustomizer<ReactorClientHttpConnectorBuilder> stockConnector(
			ReactorResourceFactory stockResources) {
		return (builder) -> builder.withReactorResourceFactory(stockResources);
	}

}
