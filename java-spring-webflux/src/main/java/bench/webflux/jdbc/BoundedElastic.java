package bench.webflux.jdbc;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * How the variant makes a blocking JDBC call reactive: subscribed on Reactor's boundedElastic
 * scheduler, whose threads may block, so that no event loop ever waits on HikariCP or PostgreSQL.
 * Its default size, ten threads per processor (ten under jvm.options' one processor), equals
 * DB_POOL_SIZE's default: more threads would only wait on the pool.
 */
final class BoundedElastic {

	private BoundedElastic() {
	}

	/** The call's result, or empty when it returns null. */
	static <T> Mono<T> call(Callable<T> blocking) {
		return Mono.fromCallable(blocking).subscribeOn(Schedulers.boundedElastic());
	}

	/** The rows of a call that reads them all at once, as JDBC does. */
	static <T> Flux<T> list(Callable<List<T>> blocking) {
		return call(blocking).flatMapIterable(Function.identity());
	}

}
