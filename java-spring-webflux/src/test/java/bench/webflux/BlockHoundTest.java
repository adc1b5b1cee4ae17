package bench.webflux;

import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * BlockHound is installed for the whole test run by blockhound-junit-platform (on the class path,
 * found by the JUnit Platform), so that any blocking call on a non-blocking thread fails the build.
 * This proves it is: a sleep on one of Reactor's parallel threads is an error.
 */
class BlockHoundTest {

	@Test
	void blockingOnANonBlockingThreadIsAnError() {
		Mono<String> sleeping = Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel());
		StepVerifier.create(sleeping).expectError(BlockingOperationError.class).verify();
	}

}
