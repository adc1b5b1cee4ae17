package bench.webflux.config;

import java.util.function.BiPredicate;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ValidationDepth;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.pool.PooledRefMetadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;

/** The pool never hands out a connection whose socket has closed, and keeps idle ones 10 minutes. */
class DatabaseConfigurationTest {

	private final BiPredicate<Connection, PooledRefMetadata> evict = DatabaseConfiguration.idleTooLongOrClosed();

	@Test
	void anOpenConnectionRecentlyUsedStays() {
		assertThat(this.evict.test(connection(Mono.just(true)), idleFor(1_000))).isFalse();
	}

	@Test
	void aClosedConnectionGoes() {
		assertThat(this.evict.test(connection(Mono.just(false)), idleFor(0))).isTrue();
	}

	@Test
	void aConnectionIdleForTenMinutesGoes() {
		assertThat(this.evict.test(connection(Mono.just(true)), idleFor(600_000))).isTrue();
	}

	@Test
	void aValidationThatDoesNotAnswerAtOnceCountsAsOpen() {
		// The pool's own validation on acquire still runs after the eviction predicate.
		assertThat(this.evict.test(connection(Mono.never()), idleFor(0))).isFalse();
	}

	private static Connection connection(Mono<Boolean> localValidation) {
		Connection connection = mock(Connection.class);
		doReturn(localValidation).when(connection).validate(ValidationDepth.LOCAL);
		return connection;
	}

	private static PooledRefMetadata idleFor(long millis) {
		PooledRefMetadata metadata = mock(PooledRefMetadata.class);
		given(metadata.idleTime()).willReturn(millis);
		return metadata;
	}

}
