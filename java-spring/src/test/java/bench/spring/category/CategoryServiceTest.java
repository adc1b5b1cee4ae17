package bench.spring.category;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import bench.spring.error.AlreadyExistsException;
import bench.spring.error.NotFoundException;
import bench.spring.error.StillReferencedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataIntegrityViolationException;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.mock;

/** How a category write reads PostgreSQL's refusal: by SQLSTATE and the operation, nothing else. */
class CategoryServiceTest {

	private static final CategoryRequest REQUEST = new CategoryRequest("CAT-X", "Name");

	private final CategoryRepository categories = mock(CategoryRepository.class);

	private final CategoryService service = new CategoryService(this.categories,
			Clock.fixed(Instant.parse("2026-05-01T00:00:00Z"), ZoneOffset.UTC));

	@Test
	void aTakenCodeIsAlreadyExists() {
		given(this.categories.saveAndFlush(any())).willThrow(refusal("23505"));
		assertThatThrownBy(() -> this.service.create(REQUEST)).isInstanceOf(AlreadyExistsException.class)
			.hasMessage("code CAT-X already exists");
		given(this.categories.findById(1L)).willReturn(Optional.of(new Category("CAT-0001", "n", Instant.EPOCH)));
		willThrow(refusal("23505")).given(this.categories).flush();
		assertThatThrownBy(() -> this.service.replace(1, REQUEST)).isInstanceOf(AlreadyExistsException.class);
	}

	@ParameterizedTest
	@ValueSource(strings = { "23503", "23502", "23514", "" })
	void anyOtherIntegrityErrorOfAWriteGoesOnAsItIs(String sqlState) {
		DataIntegrityViolationException refusal = refusal(sqlState);
		given(this.categories.saveAndFlush(any())).willThrow(refusal);
		assertThatThrownBy(() -> this.service.create(REQUEST)).isSameAs(refusal);
	}

	@Test
	void aDeleteRefusedByTheForeignKeyIsStillReferenced() {
		given(this.categories.deleteWhereId(3)).willThrow(refusal("23503"));
		assertThatThrownBy(() -> this.service.delete(3)).isInstanceOf(StillReferencedException.class)
			.hasMessage("category 3 still has items");
	}

	@ParameterizedTest
	@ValueSource(strings = { "23505", "23514", "" })
	void anyOtherIntegrityErrorOfADeleteGoesOnAsItIs(String sqlState) {
		DataIntegrityViolationException refusal = refusal(sqlState);
		given(this.categories.deleteWhereId(3)).willThrow(refusal);
		assertThatThrownBy(() -> this.service.delete(3)).isSameAs(refusal);
	}

	@Test
	void deletingNothingIsNotFound() {
		given(this.categories.deleteWhereId(4)).willReturn(0);
		assertThatThrownBy(() -> this.service.delete(4)).isInstanceOf(NotFoundException.class);
	}

	private static DataIntegrityViolationException refusal(String sqlState) {
		return new DataIntegrityViolationException("could not execute statement",
				new SQLException("ERROR", sqlState.isEmpty() ? null : sqlState));
	}

}
