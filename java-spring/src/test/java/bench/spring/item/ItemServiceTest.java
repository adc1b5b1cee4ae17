package bench.spring.item;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import bench.spring.category.CategoryRepository;
import bench.spring.error.AlreadyExistsException;
import bench.spring.error.UnknownCategoryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.DataIntegrityViolationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.mock;

/** How an item write reads PostgreSQL's refusal: by SQLSTATE and the operation, nothing else. */
class ItemServiceTest {

	private static final ItemRequest REQUEST = new ItemRequest("SKU-X", "Thing", new BigDecimal("1.5"), 3L, null, 7L);

	private final ItemRepository items = mock(ItemRepository.class);

	private final ItemService service = new ItemService(this.items, new JoinedItemPages(this.items),
			mock(CategoryRepository.class), Clock.fixed(Instant.parse("2026-05-01T00:00:00Z"), ZoneOffset.UTC));

	@Test
	void aTakenSkuIsAlreadyExists() {
		given(this.items.saveAndFlush(any())).willThrow(refusal("23505"));
		assertThatThrownBy(() -> this.service.create(REQUEST)).isInstanceOf(AlreadyExistsException.class)
			.hasMessage("sku SKU-X already exists");
	}

	@Test
	void aForeignKeyViolationIsAnUnknownCategory() {
		given(this.items.saveAndFlush(any())).willThrow(refusal("23503"));
		assertThatThrownBy(() -> this.service.create(REQUEST)).isInstanceOfSatisfying(UnknownCategoryException.class,
				ex -> assertThat(ex.categoryId()).isEqualTo(7));
	}

	@Test
	void aReplacementIsJudgedAlike() {
		given(this.items.findById(1L)).willReturn(Optional.of(new Item(REQUEST, null, Instant.EPOCH)));
		willThrow(refusal("23505")).given(this.items).flush();
		assertThatThrownBy(() -> this.service.replace(1, REQUEST)).isInstanceOf(AlreadyExistsException.class);
		willThrow(refusal("23503")).given(this.items).flush();
		assertThatThrownBy(() -> this.service.replace(1, REQUEST)).isInstanceOf(UnknownCategoryException.class);
	}

	/** Not null, check, exclusion, or no SQLSTATE at all: not the client's to fix, a logged 500. */
	@ParameterizedTest
	@ValueSource(strings = { "23502", "23514", "23P01", "23000", "" })
	void anyOtherIntegrityErrorGoesOnAsItIs(String sqlState) {
		DataIntegrityViolationException refusal = refusal(sqlState);
		given(this.items.saveAndFlush(any())).willThrow(refusal);
		assertThatThrownBy(() -> this.service.create(REQUEST)).isSameAs(refusal);
	}

	static DataIntegrityViolationException refusal(String sqlState) {
		return new DataIntegrityViolationException("could not execute statement",
				new SQLException("ERROR", sqlState.isEmpty() ? null : sqlState));
	}

}
