package bench.webflux.config;

import reactor.netty.NettyPipeline;

import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Pipelined requests answered up to a {@code Connection: close} among them (PipelinedCloseHandler
 * says why), through Reactor Netty's documented hook for a connection's own handlers.
 */
@Configuration(proxyBeanMethods = false)
class PipeliningConfiguration {

	static final String HANDLER_NAME = "bench.pipelinedClose";

	@Bean
	NettyServerCustomizer pipelinedClose() {
		return server -> server.doOnChannelInit((observer, channel, remoteAddress) -> {
			// The codec is absent on a connection that is not HTTP/1.1 (none is, without h2c configured).
			if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
				channel.pipeline().addAfter(NettyPipeline.HttpCodec, HANDLER_NAME, new PipelinedCloseHandler());
			}
		});
	}

}
