package bench.webflux.category;

import java.time.Instant;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.domain.Pageable;
import org.springframework.data.r2dbc.repository.Modifying;
import org.springframework.data.r2dbc.repository.Query;
import org.springframework.data.r2dbc.repository.R2dbcRepository;

public interface CategoryRepository extends R2dbcRepository<Category, Long> {

	/** One page, {@code LIMIT}/{@code OFFSET} and {@code ORDER BY} from the {@link Pageable}. */
	Flux<Category> findAllBy(Pageable pageable);

	/**
	 * Full replacement in one UPDATE whose row count says whether the category exists; saving the
	 * entity would read it first, and report an absent row as an error of its own.
	 */
	@Modifying
	@Query("UPDATE category SET code = :code, name = :name, updated_at = :updatedAt WHERE id = :id")
	Mono<Long> replace(long id, String code, String name, Instant updatedAt);

	/** One DELETE that reports how many rows went; {@code deleteById} does not tell. */
	@Modifying
	@Query("DELETE FROM category WHERE id = :id")
	Mono<Long> deleteWhereId(long id);

}
