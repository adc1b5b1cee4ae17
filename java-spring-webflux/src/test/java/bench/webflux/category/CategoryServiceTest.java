package bench.webflux.category;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import bench.webflux.error.AlreadyExistsException;
import bench.webflux.error.NotFoundException;
import bench.webflux.error.StillReferencedException;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.dao.DataIntegrityViolationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/** How a category write reads PostgreSQL's refusal: by SQLSTATE and the operation, nothing else. */
class CategoryServiceTest {

	private static final CategoryRequest REQUEST = new CategoryRequest("CAT-X", "Name");

	private static final Instant NOW = Instant.parse("2026-05-01T00:00:00.123456789Z");

	private final CategoryRepository categories = mock(CategoryRepository.class);

	private final CategoryService service = new CategoryService(this.categories, Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void aTakenCodeIsAlreadyExists() {
		given(this.categories.save(any())).willReturn(Mono.error(refusal("23505")));
		StepVerifier.create(this.service.create(REQUEST))
			.expectErrorSatisfies(ex -> assertThat(ex).isInstanceOf(AlreadyExistsException.class)
				.hasMessage("code CAT-X already exists"))
			.verify();
		given(this.categories.replace(anyLong(), anyString(), anyString(), any())).willReturn(Mono.error(refusal("23505")));
		StepVerifier.create(this.service.replace(1, REQUEST)).expectError(AlreadyExistsException.class).verify();
	}

	@ParameterizedTest
	@ValueSource(strings = { "23503", "23502", "23514", "" })
	void anyOtherIntegrityErrorOfAWriteGoesOnAsItIs(String sqlState) {
		DataIntegrityViolationException refusal = refusal(sqlState);
		given(this.categories.save(any())).willReturn(Mono.error(refusal));
		StepVerifier.create(this.service.create(REQUEST)).expectErrorMatches(ex -> ex == refusal).verify();
	}

	@Test
	void aReplacementIsOneUpdateWhoseRowCountTellsAbsence() {
		given(this.categories.replace(1, "CAT-X", "Name", Instant.parse("2026-05-01T00:00:00.123456Z")))
			.willReturn(Mono.just(1L));
		StepVerifier.create(this.service.replace(1, REQUEST))
			.expectNext(new CategoryResponse(1, "CAT-X", "Name", Instant.parse("2026-05-01T00:00:00.123456Z")))
			.verifyComplete();
		given(this.categories.replace(anyLong(), anyString(), anyString(), any())).willReturn(Mono.just(0L));
		StepVerifier.create(this.service.replace(2, REQUEST)).expectError(NotFoundException.class).verify();
	}

	@Test
	void aDeleteRefusedByTheForeignKeyIsStillReferenced() {
		given(this.categories.deleteWhereId(3)).willReturn(Mono.error(refusal("23503")));
		StepVerifier.create(this.service.delete(3))
			.expectErrorSatisfies(ex -> assertThat(ex).isInstanceOf(StillReferencedException.class)
				.hasMessage("category 3 still has items"))
			.verify();
	}

	@ParameterizedTest
	@ValueSource(strings = { "23505", "23514", "" })
	void anyOtherIntegrityErrorOfADeleteGoesOnAsItIs(String sqlState) {
		DataIntegrityViolationException refusal = refusal(sqlState);
		given(this.categories.deleteWhereId(3)).willReturn(Mono.error(refusal));
		StepVerifier.create(this.service.delete(3)).expectErrorMatches(ex -> ex == refusal).verify();
	}

	@Test
	void deletingNothingIsNotFound() {
		given(this.categories.deleteWhereId(4)).willReturn(Mono.just(0L));
		StepVerifier.create(this.service.delete(4)).expectError(NotFoundException.class).verify();
		given(this.categories.deleteWhereId(5)).willReturn(Mono.just(1L));
		StepVerifier.create(this.service.delete(5)).verifyComplete();
	}

	static DataIntegrityViolationException refusal(String sqlState) {
		return new DataIntegrityViolationException("executeMany",
				new R2dbcDataIntegrityViolationException("ERROR", sqlState.isEmpty() ? null : sqlState));
	}

}
