package bench.spring.web;

import java.time.Duration;

import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A body's wait between bytes of its own, longer than the headers' 3 s
 * ({@code server.tomcat.connection-timeout}, which closes slow headers). Tomcat waits for a body's
 * bytes as long as for the headers' unless told otherwise, and a client sending thousands of
 * bodies at once leaves some of them still for seconds while it writes the others: with the 3 s
 * they ended in 408s (README.md, "Limits"). Spring Boot has no property for Tomcat's upload
 * timeout, hence the customizer.
 */
@Configuration(proxyBeanMethods = false)
class BodyReadTimeoutConfiguration {

	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> bodyReadTimeout(
			@Value("${app.request-bodies.read-timeout}") Duration timeout) {
		return factory -> factory.addProtocolHandlerCustomizers(protocol -> {
			if (protocol instanceof AbstractHttp11Protocol<?> http) {
				http.setDisableUploadTimeout(false);
				http.setConnectionUploadTimeout(Math.toIntExact(timeout.toMillis()));
			}
		});
	}

}
