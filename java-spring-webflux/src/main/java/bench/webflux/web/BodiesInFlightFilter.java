package bench.webflux.web;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import bench.webflux.error.ServerBusyException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Bounds the request bodies being read at once to {@code app.request-bodies.in-flight} bytes
 * together, so that however many arrive at once Netty's buffers and the heap hold a bounded number
 * of them (README.md, "Limits"). A body takes room for its declared length, or for the codecs'
 * in-memory limit when it is chunked, when the handler subscribes to it, so a wrong route, method,
 * path id or Content-Type answers first; when there is no room the body fails at once with
 * {@link ServerBusyException}, which the error map answers 503. Nothing waits for room: the
 * answer comes at once, and Reactor Netty reads no more of a body nobody has asked for. The room
 * is given back when the exchange ends.
 */
@Component
public class BodiesInFlightFilter implements WebFilter {

	/** Bytes of the bodies being read, one permit a byte. */
	private final Semaphore room;

	/** The most of one body that is read into memory; a longer one is a 413. */
	private final int maxBodyBytes;

	public BodiesInFlightFilter(@Value("${app.request-bodies.in-flight}") DataSize inFlight,
			@Value("${spring.http.codecs.max-in-memory-size}") DataSize maxInMemorySize) {
		this.room = new Semaphore(Math.toIntExact(inFlight.toBytes()));
		this.maxBodyBytes = Math.toIntExact(maxInMemorySize.toBytes());
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		BudgetedRequest request = new BudgetedRequest(exchange.getRequest());
		return chain.filter(exchange.mutate().request(request).build()).doFinally(signal -> request.release());
	}

	private final class BudgetedRequest extends ServerHttpRequestDecorator {

		private final AtomicInteger taken = new AtomicInteger();

		BudgetedRequest(ServerHttpRequest request) {
			super(request);
		}

		@Override
		public Flux<DataBuffer> getBody() {
			return Flux.defer(() -> {
				long declared = getHeaders().getContentLength();
				int size = (int) ((declared < 0) ? BodiesInFlightFilter.this.maxBodyBytes
						: Math.min(declared, BodiesInFlightFilter.this.maxBodyBytes));
				if (!BodiesInFlightFilter.this.room.tryAcquire(size)) {
					return Flux.error(new ServerBusyException("the server is busy, try again shortly"));
				}
				this.taken.addAndGet(size);
				return super.getBody();
			});
		}

		void release() {
			BodiesInFlightFilter.this.room.release(this.taken.getAndSet(0));
		}

	}

}
