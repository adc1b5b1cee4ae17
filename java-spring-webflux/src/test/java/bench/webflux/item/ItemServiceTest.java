package bench.webflux.item;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import bench.webflux.category.Category;
import bench.webflux.category.CategoryRepository;
import bench.webflux.error.AlreadyExistsException;
import bench.webflux.error.NotFoundException;
import bench.webflux.error.UnknownCategoryException;
import bench.webflux.web.PageQuery;
import bench.webflux.web.PageResponse;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.dao.DataIntegrityViolationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

/** How an item write reads PostgreSQL's refusal, and how many statements a page costs. */
class ItemServiceTest {

	private static final ItemRequest REQUEST = new ItemRequest("SKU-X", "Thing", new BigDecimal("1.5"), 3L, null, 7L);

	private static final Instant NOW = Instant.parse("2026-05-01T00:00:00Z");

	private final ItemRepository items = mock(ItemRepository.class);

	private final CategoryRepository categories = mock(CategoryRepository.class);

	private final ItemService service = new ItemService(this.items, this.categories, Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void aCreatedItemEmbedsTheCategoryItNames() {
		given(this.items.save(any())).willAnswer(call -> {
			Item item = call.getArgument(0);
			return Mono.just(new Item(100001L, item.sku(), item.name(), item.price(), item.stock(), item.description(),
					item.categoryId(), item.updatedAt()));
		});
		given(this.categories.findById(7L)).willReturn(Mono.just(new Category(7L, "CAT-0007", "Category 7", NOW)));
		StepVerifier.create(this.service.create(REQUEST)).assertNext(created -> {
			assertThat(created.id()).isEqualTo(100001);
			assertThat(created.price()).isEqualTo(new BigDecimal("1.50"));
			assertThat(created.category()).isEqualTo(new ItemResponse.CategorySummary(7, "CAT-0007", "Category 7"));
		}).verifyComplete();
	}

	@Test
	void aTakenSkuIsAlreadyExists() {
		given(this.items.save(any())).willReturn(Mono.error(refusal("23505")));
		StepVerifier.create(this.service.create(REQUEST))
			.expectErrorSatisfies(ex -> assertThat(ex).isInstanceOf(AlreadyExistsException.class)
				.hasMessage("sku SKU-X already exists"))
			.verify();
	}

	@Test
	void aForeignKeyViolationIsAnUnknownCategory() {
		given(this.items.save(any())).willReturn(Mono.error(refusal("23503")));
		StepVerifier.create(this.service.create(REQUEST))
			.expectErrorSatisfies(ex -> assertThat(ex).isInstanceOfSatisfying(UnknownCategoryException.class,
					unknown -> assertThat(unknown.categoryId()).isEqualTo(7)))
			.verify();
	}

	@Test
	void aReplacementIsJudgedAlike() {
		given(replace()).willReturn(Mono.error(refusal("23505")));
		StepVerifier.create(this.service.replace(1, REQUEST)).expectError(AlreadyExistsException.class).verify();
		given(replace()).willReturn(Mono.error(refusal("23503")));
		StepVerifier.create(this.service.replace(1, REQUEST)).expectError(UnknownCategoryException.class).verify();
		given(replace()).willReturn(Mono.just(0L));
		StepVerifier.create(this.service.replace(1, REQUEST)).expectError(NotFoundException.class).verify();
	}

	/** Not null, check, exclusion, or no SQLSTATE at all: not the client's to fix, a logged 500. */
	@ParameterizedTest
	@ValueSource(strings = { "23502", "23514", "23P01", "23000", "" })
	void anyOtherIntegrityErrorGoesOnAsItIs(String sqlState) {
		DataIntegrityViolationException refusal = refusal(sqlState);
		given(this.items.save(any())).willReturn(Mono.error(refusal));
		StepVerifier.create(this.service.create(REQUEST)).expectErrorMatches(ex -> ex == refusal).verify();
	}

	@Test
	void aPageThatIsNotFullNeedsNoCount() {
		given(this.items.findPageWithCategory(20, 0)).willReturn(Flux.just(row(1), row(2)));
		StepVerifier.create(this.service.list(PageQuery.of(null, null), null))
			.assertNext(page -> assertThat(page.page().totalElements()).isEqualTo(2))
			.verifyComplete();
		verify(this.items, never()).countAll();
	}

	@Test
	void aFullPageCounts() {
		given(this.items.findPageWithCategory(2, 4)).willReturn(Flux.just(row(5), row(6)));
		given(this.items.countAll()).willReturn(Mono.just(100000L));
		StepVerifier.create(this.service.list(PageQuery.of(2L, 2L), null))
			.assertNext(page -> assertThat(page.page()).isEqualTo(
					new PageResponse.Metadata(2, 2, 100000, 50000)))
			.verifyComplete();
	}

	@Test
	void aPagePastAnyIntOffsetOnlyCounts() {
		given(this.items.countAll()).willReturn(Mono.just(100000L));
		StepVerifier.create(this.service.list(PageQuery.of(Long.MAX_VALUE, 100L), null))
			.assertNext(page -> {
				assertThat(page.content()).isEmpty();
				assertThat(page.page().number()).isEqualTo(Long.MAX_VALUE);
				assertThat(page.page().totalPages()).isEqualTo(1000);
			})
			.verifyComplete();
		verify(this.items, never()).findPageWithCategory(anyInt(), anyLong());
	}

	@Test
	void theItemsOfAnAbsentCategoryAreNotFoundOnlyWhenThePageIsEmpty() {
		given(this.items.findPageWithCategory(2001L, 20, 0)).willReturn(Flux.empty());
		given(this.categories.existsById(2001L)).willReturn(Mono.just(false));
		StepVerifier.create(this.service.listByCategory(2001, PageQuery.of(null, null)))
			.expectError(NotFoundException.class)
			.verify();
		given(this.items.findPageWithCategory(7L, 20, 0)).willReturn(Flux.just(row(7)));
		StepVerifier.create(this.service.listByCategory(7, PageQuery.of(null, null)))
			.assertNext(page -> assertThat(page.content()).hasSize(1))
			.verifyComplete();
		verify(this.categories, never()).existsById(7L);
	}

	private Mono<Long> replace() {
		return this.items.replace(anyLong(), anyString(), anyString(), any(), anyInt(), any(), anyLong(), any());
	}

	private static ItemWithCategory row(long id) {
		return new ItemWithCategory(new Item(id, "SKU-" + id, "Item " + id, BigDecimal.ONE, 1, null, 7, NOW), "CAT-0007",
				"Category 7");
	}

	static DataIntegrityViolationException refusal(String sqlState) {
		return new DataIntegrityViolationException("executeMany",
				new R2dbcDataIntegrityViolationException("ERROR", sqlState.isEmpty() ? null : sqlState));
	}

}
