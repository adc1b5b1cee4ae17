package bench.webflux.category;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import bench.webflux.error.AlreadyExistsException;
import bench.webflux.error.DatabaseErrors;
import bench.webflux.error.NotFoundException;
import bench.webflux.error.StillReferencedException;
import bench.webflux.web.PageQuery;
import bench.webflux.web.PageResponse;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;

/**
 * Each method is one or two statements, each on a connection of its own from the pool (no
 * transaction spans them: none is needed, and a transaction would add BEGIN and COMMIT).
 */
@Service
public class CategoryService {

	private final CategoryRepository categories;

	private final Clock clock;

	public CategoryService(CategoryRepository categories, Clock clock) {
		this.categories = categories;
		this.clock = clock;
	}

	public Mono<PageResponse<CategoryResponse>> list(PageQuery query) {
		return PageResponse.of(query, () -> this.categories.findAllBy(query.pageable()).collectList(),
				this.categories::count, CategoryResponse::from);
	}

	public Mono<CategoryResponse> get(long id) {
		return this.categories.findById(id).map(CategoryResponse::from).switchIfEmpty(Mono.error(() -> notFound(id)));
	}

	public Mono<CategoryResponse> create(CategoryRequest request) {
		return this.categories.save(new Category(null, request.code(), request.name(), now()))
			.onErrorMap(DataIntegrityViolationException.class, ex -> translate(ex, request))
			.map(CategoryResponse::from);
	}

	public Mono<CategoryResponse> replace(long id, CategoryRequest request) {
		Category category = new Category(id, request.code(), request.name(), now());
		return this.categories.replace(id, category.code(), category.name(), category.updatedAt())
			.onErrorMap(DataIntegrityViolationException.class, ex -> translate(ex, request))
			.flatMap(updated -> updated == 0 ? Mono.error(notFound(id)) : Mono.just(CategoryResponse.from(category)));
	}

	public Mono<Void> delete(long id) {
		return this.categories.deleteWhereId(id)
			// The only foreign key to a category is item.category_id.
			.onErrorMap(ex -> DatabaseErrors.is(ex, DatabaseErrors.FOREIGN_KEY_VIOLATION),
					ex -> new StillReferencedException("category " + id + " still has items"))
			.flatMap(deleted -> deleted == 0 ? Mono.error(notFound(id)) : Mono.empty());
	}

	/**
	 * A category write can break one constraint on purpose: its unique code. Any other integrity
	 * error is not the client's to fix and goes on as it is (a logged 500).
	 */
	private static Throwable translate(DataIntegrityViolationException ex, CategoryRequest request) {
		if (DatabaseErrors.is(ex, DatabaseErrors.UNIQUE_VIOLATION)) {
			return new AlreadyExistsException("code " + request.code() + " already exists");
		}
		return ex;
	}

	/** PostgreSQL keeps microseconds: the response shows exactly what was stored. */
	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	private static NotFoundException notFound(long id) {
		return new NotFoundException("category " + id + " not found");
	}

}
