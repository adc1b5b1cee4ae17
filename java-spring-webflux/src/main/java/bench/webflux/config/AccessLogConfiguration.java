package bench.webflux.config;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code LOG_REQUESTS=true}: Reactor Netty's access log, one line per request on stdout. */
@Configuration(proxyBeanMethods = false)
class AccessLogConfiguration {

	@Bean
	NettyServerCustomizer accessLog(@Value("${app.log-requests}") boolean logRequests) {
		return server -> server.accessLog(logRequests);
	}

}
