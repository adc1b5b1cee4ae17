package bench.catalog.data;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/** The SQL of categories; every statement is a prepared query on the pool. */
public final class CategoryRepository {

    private static final String COLUMNS = "id, code, name, updated_at";

    private final Pool pool;

    public CategoryRepository(Pool pool) {
        this.pool = pool;
    }

    public Future<Page<Category>> list(PageRequest page) {
        return pool.query("SELECT count(*) FROM category").execute()
                .compose(counted -> {
                    long total = counted.iterator().next().getLong(0);
                    long offset = page.offsetWithin(total);
                    if (offset < 0) {
                        return Future.succeededFuture(new Page<Category>(List.of(), total));
                    }
                    return pool.preparedQuery("SELECT " + COLUMNS + " FROM category ORDER BY id LIMIT $1 OFFSET $2")
                            .execute(Tuple.of(page.size(), offset))
                            .map(rows -> new Page<>(categories(rows), total));
                })
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)));
    }

    public Future<Category> find(long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM category WHERE id = $1")
                .execute(Tuple.of(id))
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)))
                .map(rows -> single(rows, id));
    }

    public Future<Category> create(CategoryWrite category) {
        return pool.preparedQuery("INSERT INTO category (code, name) VALUES ($1, $2) RETURNING " + COLUMNS)
                .execute(Tuple.of(category.code(), category.name()))
                .recover(failure -> Future.failedFuture(DatabaseErrors.onCategoryWrite(failure, category.code())))
                .map(rows -> categories(rows).getFirst());
    }

    public Future<Category> replace(long id, CategoryWrite category) {
        return pool.preparedQuery(
                        "UPDATE category SET code = $2, name = $3, updated_at = now() WHERE id = $1 RETURNING " + COLUMNS)
                .execute(Tuple.of(id, category.code(), category.name()))
                .recover(failure -> Future.failedFuture(DatabaseErrors.onCategoryWrite(failure, category.code())))
                .map(rows -> single(rows, id));
    }

    public Future<Void> delete(long id) {
        return pool.preparedQuery("DELETE FROM category WHERE id = $1")
                .execute(Tuple.of(id))
                .recover(failure -> Future.failedFuture(DatabaseErrors.onCategoryDelete(failure, id)))
                .compose(deleted -> deleted.rowCount() == 0
                        ? Future.failedFuture(new RecordNotFoundException("category", id))
                        : Future.succeededFuture());
    }

    private static Category single(RowSet<Row> rows, long id) {
        List<Category> found = categories(rows);
        if (found.isEmpty()) {
            throw new RecordNotFoundException("category", id);
        }
        return found.getFirst();
    }

    private static List<Category> categories(RowSet<Row> rows) {
        return rows.stream()
                .map(row -> new Category(
                        row.getLong("id"),
                        row.getString("code"),
                        row.getString("name"),
                        row.getOffsetDateTime("updated_at").toInstant()))
                .toList();
    }
}
