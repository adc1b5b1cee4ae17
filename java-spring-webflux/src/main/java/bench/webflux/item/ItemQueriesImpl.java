package bench.webflux.item;

import java.math.BigDecimal;
import java.time.Instant;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;

/** {@link ItemQueries} in SQL; Spring Data finds it by its {@code Impl} suffix. */
class ItemQueriesImpl implements ItemQueries {

	private final DatabaseClient database;

	ItemQueriesImpl(DatabaseClient database) {
		this.database = database;
	}

	@Override
	public Mono<ItemWithCategory> findWithCategory(long id) {
		return this.database.sql(FIND_WITH_CATEGORY)
			.bind("id", id)
			.map(ItemQueriesImpl::read)
			.one();
	}

	@Override
	public Flux<ItemWithCategory> findPageWithCategory(int limit, long offset) {
		return this.database.sql(FIND_PAGE_WITH_CATEGORY)
			.bind("limit", limit)
			.bind("offset", offset)
			.map(ItemQueriesImpl::read)
			.all();
	}

	@Override
	public Flux<ItemWithCategory> findPageWithCategory(long categoryId, int limit, long offset) {
		return this.database.sql(FIND_PAGE_OF_CATEGORY_WITH_CATEGORY)
			.bind("categoryId", categoryId)
			.bind("limit", limit)
			.bind("offset", offset)
			.map(ItemQueriesImpl::read)
			.all();
	}

	@Override
	public Mono<Long> countAll() {
		return this.database.sql(COUNT_ALL).map(row -> row.get(0, Long.class)).one();
	}

	private static ItemWithCategory read(Readable row) {
		Integer stock = row.get("stock", Integer.class);
		Long categoryId = row.get("category_id", Long.class);
		Item item = new Item(row.get("id", Long.class), row.get("sku", String.class), row.get("name", String.class),
				row.get("price", BigDecimal.class), stock, row.get("description", String.class), categoryId,
				row.get("updated_at", Instant.class));
		return new ItemWithCategory(item, row.get("category_code", String.class), row.get("category_name", String.class));
	}

}
