package bench.webflux.item;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import bench.webflux.category.CategoryRepository;
import bench.webflux.error.AlreadyExistsException;
import bench.webflux.error.DatabaseErrors;
import bench.webflux.error.NotFoundException;
import bench.webflux.error.UnknownCategoryException;
import bench.webflux.web.PageQuery;
import bench.webflux.web.PageResponse;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;

/**
 * Each method is one to three statements, each on a connection of its own from the pool (no
 * transaction spans them: none is needed, and a transaction would add BEGIN and COMMIT).
 */
@Service
public class ItemService {

	private final ItemRepository items;

	private final CategoryRepository categories;

	private final Clock clock;

	public ItemService(ItemRepository items, CategoryRepository categories, Clock clock) {
		this.items = items;
		this.categories = categories;
		this.clock = clock;
	}

	/** All items, or those of one category; an unknown category is simply an empty page. */
	public Mono<PageResponse<ItemResponse>> list(PageQuery query, Long categoryId) {
		if (categoryId != null) {
			return listOfCategory(query, categoryId);
		}
		return PageResponse.of(query,
				() -> this.items.findPageWithCategory(query.size(), query.offset()).collectList(),
				this.items::countAll, ItemResponse::from);
	}

	/** The items of a category that must exist. */
	public Mono<PageResponse<ItemResponse>> listByCategory(long categoryId, PageQuery query) {
		// Only an empty page raises the question, so the usual request costs no extra query.
		return listOfCategory(query, categoryId).flatMap(page -> page.content().isEmpty()
				? this.categories.existsById(categoryId).flatMap(exists -> exists ? Mono.just(page)
						: Mono.error(new NotFoundException("category " + categoryId + " not found")))
				: Mono.just(page));
	}

	private Mono<PageResponse<ItemResponse>> listOfCategory(PageQuery query, long categoryId) {
		return PageResponse.of(query,
				() -> this.items.findPageWithCategory(categoryId, query.size(), query.offset()).collectList(),
				() -> this.items.countByCategoryId(categoryId), ItemResponse::from);
	}

	public Mono<ItemResponse> get(long id) {
		return this.items.findWithCategory(id).map(ItemResponse::from).switchIfEmpty(Mono.error(() -> notFound(id)));
	}

	/** The insert, then the category it names (which the foreign key has just proven to exist). */
	public Mono<ItemResponse> create(ItemRequest request) {
		return this.items.save(Item.of(null, request, now()))
			.onErrorMap(DataIntegrityViolationException.class, ex -> translate(ex, request))
			.flatMap(this::withCategory);
	}

	/** The update, whose row count tells a 404, then the category it names. */
	public Mono<ItemResponse> replace(long id, ItemRequest request) {
		Item item = Item.of(id, request, now());
		return this.items
			.replace(id, item.sku(), item.name(), item.price(), item.stock(), item.description(), item.categoryId(),
					item.updatedAt())
			.onErrorMap(DataIntegrityViolationException.class, ex -> translate(ex, request))
			.flatMap(updated -> updated == 0 ? Mono.error(notFound(id)) : withCategory(item));
	}

	public Mono<Void> delete(long id) {
		return this.items.deleteWhereId(id).flatMap(deleted -> deleted == 0 ? Mono.error(notFound(id)) : Mono.empty());
	}

	private Mono<ItemResponse> withCategory(Item item) {
		return this.categories.findById(item.categoryId())
			.map(category -> ItemResponse.from(item, category))
			// Only a category deleted after the write (and so the item too) could be missing.
			.switchIfEmpty(Mono.error(() -> notFound(item.id())));
	}

	/**
	 * The database decides: PostgreSQL checks the unique sku while writing the row and the
	 * foreign key at the end of the statement, so a taken sku wins over an unknown category. An
	 * item write can break these two constraints on purpose (its table has no other unique key or
	 * foreign key); any other integrity error goes on as it is (a logged 500).
	 */
	private static Throwable translate(DataIntegrityViolationException ex, ItemRequest request) {
		if (DatabaseErrors.is(ex, DatabaseErrors.UNIQUE_VIOLATION)) {
			return new AlreadyExistsException("sku " + request.sku() + " already exists");
		}
		if (DatabaseErrors.is(ex, DatabaseErrors.FOREIGN_KEY_VIOLATION)) {
			return new UnknownCategoryException(request.categoryId());
		}
		return ex;
	}

	/** PostgreSQL keeps microseconds: the response shows exactly what was stored. */
	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	private static NotFoundException notFound(long id) {
		return new NotFoundException("item " + id + " not found");
	}

}
