package bench.webflux.item;

import java.math.BigDecimal;
import java.time.Instant;

import reactor.core.publisher.Mono;

import org.springframework.data.r2dbc.repository.Modifying;
import org.springframework.data.r2dbc.repository.Query;
import org.springframework.data.r2dbc.repository.R2dbcRepository;

/** Writes and counts by Spring Data R2DBC; the reads that embed the category by {@link ItemQueries}. */
public interface ItemRepository extends R2dbcRepository<Item, Long>, ItemQueries {

	Mono<Long> countByCategoryId(long categoryId);

	/**
	 * Full replacement in one UPDATE whose row count says whether the item exists; saving the
	 * entity would read it first, and report an absent row as an error of its own.
	 */
	@Modifying
	@Query("""
			UPDATE item SET sku = :sku, name = :name, price = :price, stock = :stock, description = :description,
			       category_id = :categoryId, updated_at = :updatedAt
			WHERE id = :id""")
	Mono<Long> replace(long id, String sku, String name, BigDecimal price, int stock, String description,
			long categoryId, Instant updatedAt);

	/** One DELETE that reports how many rows went; {@code deleteById} does not tell. */
	@Modifying
	@Query("DELETE FROM item WHERE id = :id")
	Mono<Long> deleteWhereId(long id);

}
