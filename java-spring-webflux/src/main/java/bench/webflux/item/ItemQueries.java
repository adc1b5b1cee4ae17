package bench.webflux.item;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reads that embed the category: one SQL join each, which Spring Data R2DBC's derived queries
 * cannot express (it maps no relations). A fragment of {@link ItemRepository}, implemented with
 * {@code DatabaseClient} by {@link ItemQueriesImpl}; its SQL, in named-parameter form, is shared
 * with the variant jdbc-bounded-elastic's JDBC implementation.
 */
public interface ItemQueries {

	String SELECT_WITH_CATEGORY = """
			SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id, i.updated_at,
			       c.code AS category_code, c.name AS category_name
			FROM item i JOIN category c ON c.id = i.category_id
			""";

	String FIND_WITH_CATEGORY = SELECT_WITH_CATEGORY + "WHERE i.id = :id";

	String FIND_PAGE_WITH_CATEGORY = SELECT_WITH_CATEGORY + "ORDER BY i.id LIMIT :limit OFFSET :offset";

	String FIND_PAGE_OF_CATEGORY_WITH_CATEGORY = SELECT_WITH_CATEGORY
			+ "WHERE i.category_id = :categoryId ORDER BY i.id LIMIT :limit OFFSET :offset";

	String COUNT_ALL = "SELECT count(*) FROM item";

	Mono<ItemWithCategory> findWithCategory(long id);

	/** A page of all items, by id. */
	Flux<ItemWithCategory> findPageWithCategory(int limit, long offset);

	/** A page of the items of one category, by id. */
	Flux<ItemWithCategory> findPageWithCategory(long categoryId, int limit, long offset);

	/** {@code count(*)}: the derived count would be {@code COUNT(item.id)}, which reads every row's id. */
	Mono<Long> countAll();

}
