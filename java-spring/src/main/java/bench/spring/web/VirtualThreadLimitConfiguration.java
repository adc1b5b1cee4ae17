package bench.spring.web;

import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * At most {@code app.virtual-threads.max} requests in Tomcat's hands at once, as
 * {@code server.tomcat.threads.max} bounds its platform threads. Spring Boot's virtual-thread
 * executor starts a thread for every connection with something to read, and each request in
 * progress holds about 80 KiB of Tomcat's buffers: thousands of bodies arriving at once would
 * fill the heap with them (README.md, "Limits"). Past the limit a connection's turn waits, its
 * request not yet read, on a parked virtual thread that holds none of those buffers; the JDK's
 * advice for bounding virtual threads is a semaphore, not a pool.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnThreading(Threading.VIRTUAL)
class VirtualThreadLimitConfiguration {

	/**
	 * Unordered, so it runs after Spring Boot's own customizer (order 1), which gives Tomcat its
	 * virtual-thread executor: that executor is the one wrapped.
	 */
	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> virtualThreadLimit(
			@Value("${app.virtual-threads.max}") int max) {
		return factory -> factory
			.addProtocolHandlerCustomizers(protocol -> protocol.setExecutor(new Limited(protocol.getExecutor(), max)));
	}

	/** Runs each task on the executor once one of the permits is free, FIFO. */
	private static final class Limited implements Executor {

		private final Executor executor;

		private final Semaphore permits;

		Limited(Executor executor, int max) {
			this.executor = executor;
			this.permits = new Semaphore(max, true);
		}

		@Override
		public void execute(Runnable task) {
			this.executor.execute(() -> {
				this.permits.acquireUninterruptibly();
				try {
					task.run();
				}
				finally {
					this.permits.release();
				}
			});
		}

	}

}
