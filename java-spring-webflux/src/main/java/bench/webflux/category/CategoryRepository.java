package bench.webflux.category;

import java.time.Instant;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.domain.Pageable;
import org.springframework.data.r2dbc.repository.Modifying;
import org.springframework.data.r2dbc.repository.Query;
import org.springframework.data.repository.Repository;

/**
 * The statements of {@link CategoryService}, implemented by Spring Data R2DBC. It declares the CRUD
 * methods it uses one by one rather than extending R2dbcRepository, so that the variant
 * jdbc-bounded-elastic can implement the same interface over JDBC (bench.webflux.jdbc) with the
 * same SQL; the SQL it writes out is shared through the constants below.
 */
public interface CategoryRepository extends Repository<Category, Long> {

	String REPLACE = "UPDATE category SET code = :code, name = :name, updated_at = :updatedAt WHERE id = :id";

	String DELETE = "DELETE FROM category WHERE id = :id";

	/** One page, {@code LIMIT}/{@code OFFSET} and {@code ORDER BY} from the {@link Pageable}. */
	Flux<Category> findAllBy(Pageable pageable);

	Mono<Long> count();

	Mono<Category> findById(Long id);

	Mono<Boolean> existsById(Long id);

	/** An insert of a new category (its id null), returned with the id PostgreSQL gave it. */
	Mono<Category> save(Category category);

	/**
	 * Full replacement in one UPDATE whose row count says whether the category exists; saving the
	 * entity would read it first, and report an absent row as an error of its own.
	 */
	@Modifying
	@Query(REPLACE)
	Mono<Long> replace(long id, String code, String name, Instant updatedAt);

	/** One DELETE that reports how many rows went; {@code deleteById} does not tell. */
	@Modifying
	@Query(DELETE)
	Mono<Long> deleteWhereId(long id);

}
