package bench.webflux.jdbc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import bench.webflux.item.Item;
import bench.webflux.item.ItemRepository;
import bench.webflux.item.ItemWithCategory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * {@link ItemRepository} over JdbcClient, each statement on boundedElastic, with the R2DBC
 * repository's statements: the joins of ItemQueries and the {@code @Query} SQL as they are (JdbcClient
 * takes the same named parameters as R2DBC's DatabaseClient), the derived ones written out.
 */
@Repository
@Profile(JdbcConfiguration.PROFILE)
class JdbcItemRepository implements ItemRepository {

	private static final String COUNT_BY_CATEGORY_ID = "SELECT COUNT(id) FROM item WHERE category_id = :categoryId";

	/**
	 * PgJDBC appends {@code RETURNING "id"} for the generated key, as r2dbc-postgresql does; Spring
	 * Data R2DBC leaves a null description out of its column list, which stores the same row.
	 */
	private static final String INSERT = """
			INSERT INTO item (sku, name, price, stock, description, category_id, updated_at)
			VALUES (:sku, :name, :price, :stock, :description, :categoryId, :updatedAt)""";

	private final JdbcClient jdbc;

	JdbcItemRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Mono<ItemWithCategory> findWithCategory(long id) {
		return BoundedElastic.call(() -> this.jdbc.sql(FIND_WITH_CATEGORY)
			.param("id", id)
			.query(JdbcItemRepository::read)
			.optional()
			.orElse(null));
	}

	@Override
	public Flux<ItemWithCategory> findPageWithCategory(int limit, long offset) {
		return BoundedElastic.list(() -> this.jdbc.sql(FIND_PAGE_WITH_CATEGORY)
			.param("limit", limit)
			.param("offset", offset)
			.query(JdbcItemRepository::read)
			.list());
	}

	@Override
	public Flux<ItemWithCategory> findPageWithCategory(long categoryId, int limit, long offset) {
		return BoundedElastic.list(() -> this.jdbc.sql(FIND_PAGE_OF_CATEGORY_WITH_CATEGORY)
			.param("categoryId", categoryId)
			.param("limit", limit)
			.param("offset", offset)
			.query(JdbcItemRepository::read)
			.list());
	}

	@Override
	public Mono<Long> countAll() {
		return BoundedElastic.call(() -> this.jdbc.sql(COUNT_ALL).query(Long.class).single());
	}

	@Override
	public Mono<Long> countByCategoryId(long categoryId) {
		return BoundedElastic
			.call(() -> this.jdbc.sql(COUNT_BY_CATEGORY_ID).param("categoryId", categoryId).query(Long.class).single());
	}

	@Override
	public Mono<Item> save(Item item) {
		return BoundedElastic.call(() -> {
			KeyHolder key = new GeneratedKeyHolder();
			this.jdbc.sql(INSERT)
				.param("sku", item.sku())
				.param("name", item.name())
				.param("price", item.price())
				.param("stock", item.stock())
				.param("description", item.description())
				.param("categoryId", item.categoryId())
				.param("updatedAt", Timestamps.bind(item.updatedAt()))
				.update(key, "id");
			return new Item(key.getKeyAs(Long.class), item.sku(), item.name(), item.price(), item.stock(),
					item.description(), item.categoryId(), item.updatedAt());
		});
	}

	@Override
	public Mono<Long> replace(long id, String sku, String name, BigDecimal price, int stock, String description,
			long categoryId, Instant updatedAt) {
		return BoundedElastic.call(() -> (long) this.jdbc.sql(REPLACE)
			.param("id", id)
			.param("sku", sku)
			.param("name", name)
			.param("price", price)
			.param("stock", stock)
			.param("description", description)
			.param("categoryId", categoryId)
			.param("updatedAt", Timestamps.bind(updatedAt))
			.update());
	}

	@Override
	public Mono<Long> deleteWhereId(long id) {
		return BoundedElastic.call(() -> (long) this.jdbc.sql(DELETE).param("id", id).update());
	}

	private static ItemWithCategory read(ResultSet row, int rowNumber) throws SQLException {
		Item item = new Item(row.getLong("id"), row.getString("sku"), row.getString("name"), row.getBigDecimal("price"),
				row.getInt("stock"), row.getString("description"), row.getLong("category_id"),
				Timestamps.read(row, "updated_at"));
		return new ItemWithCategory(item, row.getString("category_code"), row.getString("category_name"));
	}

}
