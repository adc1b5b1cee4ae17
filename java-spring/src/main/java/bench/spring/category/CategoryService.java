package bench.spring.category;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import bench.spring.error.AlreadyExistsException;
import bench.spring.error.DatabaseErrors;
import bench.spring.error.NotFoundException;
import bench.spring.error.StillReferencedException;
import bench.spring.web.PageQuery;
import bench.spring.web.PageResponse;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional(readOnly = true)
public class CategoryService {

	private final CategoryRepository categories;

	private final Clock clock;

	public CategoryService(CategoryRepository categories, Clock clock) {
		this.categories = categories;
		this.clock = clock;
	}

	public PageResponse<CategoryResponse> list(PageQuery query) {
		if (!query.reachable()) {
			return PageResponse.pastTheEnd(query, this.categories.count());
		}
		return PageResponse.of(this.categories.findAll(query.pageable()), CategoryResponse::from);
	}

	public CategoryResponse get(long id) {
		return this.categories.findById(id).map(CategoryResponse::from).orElseThrow(() -> notFound(id));
	}

	@Transactional
	public CategoryResponse create(CategoryRequest request) {
		Category category = new Category(request.code(), request.name(), now());
		try {
			this.categories.saveAndFlush(category);
		}
		catch (DataIntegrityViolationException ex) {
			throw translate(ex, request);
		}
		return CategoryResponse.from(category);
	}

	@Transactional
	public CategoryResponse replace(long id, CategoryRequest request) {
		Category category = this.categories.findById(id).orElseThrow(() -> notFound(id));
		category.replace(request.code(), request.name(), now());
		try {
			this.categories.flush();
		}
		catch (DataIntegrityViolationException ex) {
			throw translate(ex, request);
		}
		return CategoryResponse.from(category);
	}

	@Transactional
	public void delete(long id) {
		int deleted;
		try {
			deleted = this.categories.deleteWhereId(id);
		}
		catch (DataIntegrityViolationException ex) {
			// The only foreign key to a category is item.category_id.
			if (DatabaseErrors.is(ex, DatabaseErrors.FOREIGN_KEY_VIOLATION)) {
				throw new StillReferencedException("category " + id + " still has items");
			}
			throw ex;
		}
		if (deleted == 0) {
			throw notFound(id);
		}
	}

	/**
	 * A category write can break one constraint on purpose: its unique code. Any other integrity
	 * error is not the client's to fix and goes on as it is (a logged 500).
	 */
	private RuntimeException translate(DataIntegrityViolationException ex, CategoryRequest request) {
		if (DatabaseErrors.is(ex, DatabaseErrors.UNIQUE_VIOLATION)) {
			return new AlreadyExistsException("code " + request.code() + " already exists");
		}
		return ex;
	}

	/** PostgreSQL keeps microseconds: the response shows exactly what was stored. */
	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	static NotFoundException notFound(long id) {
		return new NotFoundException("category " + id + " not found");
	}

}
