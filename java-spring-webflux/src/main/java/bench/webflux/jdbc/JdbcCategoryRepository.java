package bench.webflux.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import bench.webflux.category.Category;
import bench.webflux.category.CategoryRepository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Profile;
import org.springframework.data.domain.Pageable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/**
 * {@link CategoryRepository} over JdbcClient, each statement on boundedElastic. The statements are
 * the R2DBC repository's: its {@code @Query} SQL itself, and for the methods Spring Data R2DBC
 * derives, the SQL it derives for them (as its debug log shows), written out.
 */
@Repository
@Profile(JdbcConfiguration.PROFILE)
class JdbcCategoryRepository implements CategoryRepository {

	private static final String COLUMNS = "SELECT id, code, name, updated_at FROM category ";

	/** PageQuery always orders by id. */
	private static final String FIND_PAGE = COLUMNS + "ORDER BY id LIMIT :limit OFFSET :offset";

	private static final String FIND_BY_ID = COLUMNS + "WHERE id = :id";

	private static final String COUNT = "SELECT COUNT(*) FROM category";

	private static final String EXISTS_BY_ID = "SELECT 1 FROM category WHERE id = :id LIMIT 1";

	/** PgJDBC appends {@code RETURNING "id"} for the generated key, as r2dbc-postgresql does. */
	private static final String INSERT = "INSERT INTO category (code, name, updated_at) VALUES (:code, :name, :updatedAt)";

	private final JdbcClient jdbc;

	JdbcCategoryRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Flux<Category> findAllBy(Pageable pageable) {
		return BoundedElastic.list(() -> this.jdbc.sql(FIND_PAGE)
			.param("limit", pageable.getPageSize())
			.param("offset", pageable.getOffset())
			.query(JdbcCategoryRepository::read)
			.list());
	}

	@Override
	public Mono<Long> count() {
		return BoundedElastic.call(() -> this.jdbc.sql(COUNT).query(Long.class).single());
	}

	@Override
	public Mono<Category> findById(Long id) {
		return BoundedElastic.call(
				() -> this.jdbc.sql(FIND_BY_ID).param("id", id).query(JdbcCategoryRepository::read).optional().orElse(null));
	}

	@Override
	public Mono<Boolean> existsById(Long id) {
		return BoundedElastic
			.call(() -> this.jdbc.sql(EXISTS_BY_ID).param("id", id).query(Integer.class).optional().isPresent());
	}

	@Override
	public Mono<Category> save(Category category) {
		return BoundedElastic.call(() -> {
			KeyHolder key = new GeneratedKeyHolder();
			this.jdbc.sql(INSERT)
				.param("code", category.code())
				.param("name", category.name())
				.param("updatedAt", Timestamps.bind(category.updatedAt()))
				.update(key, "id");
			return new Category(key.getKeyAs(Long.class), category.code(), category.name(), category.updatedAt());
		});
	}

	@Override
	public Mono<Long> replace(long id, String code, String name, Instant updatedAt) {
		return BoundedElastic.call(() -> (long) this.jdbc.sql(REPLACE)
			.param("id", id)
			.param("code", code)
			.param("name", name)
			.param("updatedAt", Timestamps.bind(updatedAt))
			.update());
	}

	@Override
	public Mono<Long> deleteWhereId(long id) {
		return BoundedElastic.call(() -> (long) this.jdbc.sql(DELETE).param("id", id).update());
	}

	private static Category read(ResultSet row, int rowNumber) throws SQLException {
		return new Category(row.getLong("id"), row.getString("code"), row.getString("name"),
				Timestamps.read(row, "updated_at"));
	}

}
