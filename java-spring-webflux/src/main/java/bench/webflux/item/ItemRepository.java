package bench.webflux.item;

import java.math.BigDecimal;
import java.time.Instant;

import reactor.core.publisher.Mono;

import org.springframework.data.r2dbc.repository.Modifying;
import org.springframework.data.r2dbc.repository.Query;
import org.springframework.data.repository.Repository;

/**
 * Writes and counts by Spring Data R2DBC; the reads that embed the category by {@link ItemQueries}.
 * Like CategoryRepository, it declares only the methods {@link ItemService} uses, so that the
 * variant jdbc-bounded-elastic can implement it over JDBC with the same SQL.
 */
public interface ItemRepository extends Repository<Item, Long>, ItemQueries {

	String REPLACE = """
			UPDATE item SET sku = :sku, name = :name, price = :price, stock = :stock, description = :description,
			       category_id = :categoryId, updated_at = :updatedAt
			WHERE id = :id""";

	String DELETE = "DELETE FROM item WHERE id = :id";

	Mono<Long> countByCategoryId(long categoryId);

	/** An insert of a new item (its id null), returned with the id PostgreSQL gave it. */
	Mono<Item> save(Item item);

	/**
	 * Full replacement in one UPDATE whose row count says whether the item exists; saving the
	 * entity would read it first, and report an absent row as an error of its own.
	 */
	@Modifying
	@Query(REPLACE)
	Mono<Long> replace(long id, String sku, String name, BigDecimal price, int stock, String description,
			long categoryId, Instant updatedAt);

	/** One DELETE that reports how many rows went; {@code deleteById} does not tell. */
	@Modifying
	@Query(DELETE)
	Mono<Long> deleteWhereId(long id);

}
