package bench.webflux.item;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reads that embed the category: one SQL join each, which Spring Data R2DBC's derived queries
 * cannot express (it maps no relations). A fragment of {@link ItemRepository}, implemented with
 * {@code DatabaseClient} by {@link ItemQueriesImpl}.
 */
public interface ItemQueries {

	Mono<ItemWithCategory> findWithCategory(long id);

	/** A page of all items, by id. */
	Flux<ItemWithCategory> findPageWithCategory(int limit, long offset);

	/** A page of the items of one category, by id. */
	Flux<ItemWithCategory> findPageWithCategory(long categoryId, int limit, long offset);

	/** {@code count(*)}: the derived count would be {@code COUNT(item.id)}, which reads every row's id. */
	Mono<Long> countAll();

}
