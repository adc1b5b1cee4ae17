package bench.spring.item;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import bench.spring.category.Category;
import bench.spring.category.CategoryRepository;
import bench.spring.error.AlreadyExistsException;
import bench.spring.error.DatabaseErrors;
import bench.spring.error.NotFoundException;
import bench.spring.error.UnknownCategoryException;
import bench.spring.web.PageQuery;
import bench.spring.web.PageResponse;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class ItemService {

	private final ItemRepository items;

	private final ItemPages pages;

	private final CategoryRepository categories;

	private final Clock clock;

	public ItemService(ItemRepository items, ItemPages pages, CategoryRepository categories, Clock clock) {
		this.items = items;
		this.pages = pages;
		this.categories = categories;
		this.clock = clock;
	}

	/** All items, or those of one category; an unknown category is simply an empty page. */
	public PageResponse<ItemResponse> list(PageQuery query, Long categoryId) {
		if (categoryId != null) {
			return listOfCategory(query, categoryId);
		}
		if (!query.reachable()) {
			return PageResponse.pastTheEnd(query, this.items.count());
		}
		// Mapped inside the transaction, where a lazy category (LazyItemPages) can still load.
		return PageResponse.of(this.pages.all(query.pageable()), ItemResponse::from);
	}

	/** The items of a category that must exist. */
	public PageResponse<ItemResponse> listByCategory(long categoryId, PageQuery query) {
		PageResponse<ItemResponse> page = listOfCategory(query, categoryId);
		// Only an empty page raises the question, so the usual request costs no extra query.
		if (page.content().isEmpty() && !this.categories.existsById(categoryId)) {
			throw new NotFoundException("category " + categoryId + " not found");
		}
		return page;
	}

	private PageResponse<ItemResponse> listOfCategory(PageQuery query, long categoryId) {
		if (!query.reachable()) {
			return PageResponse.pastTheEnd(query, this.items.countByCategoryId(categoryId));
		}
		Page<Item> page = this.pages.ofCategory(categoryId, query.pageable());
		return PageResponse.of(page, ItemResponse::from);
	}

	public ItemResponse get(long id) {
		return this.items.findById(id).map(ItemResponse::from).orElseThrow(() -> notFound(id));
	}

	@Transactional
	public ItemResponse create(ItemRequest request) {
		Item item = new Item(request, this.categories.getReferenceById(request.categoryId()), now());
		try {
			this.items.saveAndFlush(item);
		}
		catch (DataIntegrityViolationException ex) {
			throw translate(ex, request);
		}
		// Loads the category that the insert only referenced by id.
		return ItemResponse.from(item);
	}

	@Transactional
	public ItemResponse replace(long id, ItemRequest request) {
		Item item = this.items.findById(id).orElseThrow(() -> notFound(id));
		// The reference is the already loaded category when the item stays where it was.
		Category category = this.categories.getReferenceById(request.categoryId());
		item.replace(request, category, now());
		try {
			this.items.flush();
		}
		catch (DataIntegrityViolationException ex) {
			throw translate(ex, request);
		}
		return ItemResponse.from(item);
	}

	@Transactional
	public void delete(long id) {
		if (this.items.deleteWhereId(id) == 0) {
			throw notFound(id);
		}
	}

	/**
	 * The database decides: PostgreSQL checks the unique sku while inserting the row and the
	 * foreign key at the end of the statement, so a taken sku wins over an unknown category. An
	 * item write can break these two constraints on purpose (its table has no other unique key or
	 * foreign key); any other integrity error goes on as it is (a logged 500).
	 */
	private RuntimeException translate(DataIntegrityViolationException ex, ItemRequest request) {
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
