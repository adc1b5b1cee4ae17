package bench.datarest.stock;

import java.net.http.HttpClient;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The stock service's address, and the one thing about its client that Spring Boot's
 * {@code spring.http.clients.*} settings do not say.
 */
@Configuration(proxyBeanMethods = false)
class StockConfiguration {

	@Bean
	StockUrl stockUrl(@Value("${app.stock.url}") String value) {
		return StockUrl.parse(value);
	}

	/**
	 * HTTP/1.1, the stock service's protocol: the JDK's HttpClient otherwise offers every new
	 * cleartext connection an upgrade to HTTP/2 (h2c), which the stock service declines.
	 */
	@Bean
	ClientHttpRequestFactoryBuilderCustomizer<JdkClientHttpRequestFactoryBuilder> http11() {
		return (builder) -> builder.withHttpClientCustomizer((client) -> client.version(HttpClient.Version.HTTP_1_1));
	}

}
