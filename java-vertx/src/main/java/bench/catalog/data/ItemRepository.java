package bench.catalog.data;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/**
 * The SQL of items. Every item is read with its category in the same statement (a join, or a
 * CTE around the write), so a page costs one count and one select whatever its size.
 */
public final class ItemRepository {

    private static final String COLUMNS =
            "i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id, i.updated_at,"
                    + " c.code AS category_code, c.name AS category_name";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM item i JOIN category c ON c.id = i.category_id";

    private final Pool pool;

    public ItemRepository(Pool pool) {
        this.pool = pool;
    }

    public Future<Page<Item>> list(PageRequest page) {
        return pool.query("SELECT count(*) FROM item").execute()
                .compose(counted -> page(counted.iterator().next().getLong(0), page,
                        SELECT + " ORDER BY i.id LIMIT $1 OFFSET $2", Tuple.tuple()))
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)));
    }

    /** The items of a category; a category that does not exist has none. */
    public Future<Page<Item>> listByCategory(long categoryId, PageRequest page) {
        return pool.preparedQuery("SELECT count(*) FROM item WHERE category_id = $1")
                .execute(Tuple.of(categoryId))
                .compose(counted -> page(counted.iterator().next().getLong(0), page,
                        SELECT + " WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3", Tuple.of(categoryId)))
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)));
    }

    /** The items of a category that must exist: a {@link RecordNotFoundException} when it does not. */
    public Future<Page<Item>> listOfCategory(long categoryId, PageRequest page) {
        return pool.preparedQuery("SELECT EXISTS (SELECT 1 FROM category WHERE id = $1),"
                        + " (SELECT count(*) FROM item WHERE category_id = $1)")
                .execute(Tuple.of(categoryId))
                .compose(counted -> {
                    Row row = counted.iterator().next();
                    if (!row.getBoolean(0)) {
                        return Future.failedFuture(new RecordNotFoundException("category", categoryId));
                    }
                    return page(row.getLong(1), page,
                            SELECT + " WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3", Tuple.of(categoryId));
                })
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)));
    }

    public Future<Item> find(long id) {
        return pool.preparedQuery(SELECT + " WHERE i.id = $1")
                .execute(Tuple.of(id))
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)))
                .map(rows -> single(rows, id));
    }

    public Future<Item> create(ItemWrite item) {
        return pool.preparedQuery("WITH i AS (INSERT INTO item (sku, name, price, stock, description, category_id)"
                        + " VALUES ($1, $2, $3, $4, $5, $6) RETURNING *)"
                        + " SELECT " + COLUMNS + " FROM i JOIN category c ON c.id = i.category_id")
                .execute(Tuple.of(item.sku(), item.name(), item.price(), item.stock(), item.description(),
                        item.categoryId()))
                .recover(failure -> Future.failedFuture(
                        DatabaseErrors.onItemWrite(failure, item.sku(), item.categoryId())))
                .map(rows -> items(rows).getFirst());
    }

    public Future<Item> replace(long id, ItemWrite item) {
        return pool.preparedQuery("WITH i AS (UPDATE item SET sku = $2, name = $3, price = $4, stock = $5,"
                        + " description = $6, category_id = $7, updated_at = now() WHERE id = $1 RETURNING *)"
                        + " SELECT " + COLUMNS + " FROM i JOIN category c ON c.id = i.category_id")
                .execute(Tuple.of(id, item.sku(), item.name(), item.price(), item.stock(), item.description(),
                        item.categoryId()))
                .recover(failure -> Future.failedFuture(
                        DatabaseErrors.onItemWrite(failure, item.sku(), item.categoryId())))
                .map(rows -> single(rows, id));
    }

    public Future<Void> delete(long id) {
        return pool.preparedQuery("DELETE FROM item WHERE id = $1")
                .execute(Tuple.of(id))
                .recover(failure -> Future.failedFuture(DatabaseErrors.translate(failure)))
                .compose(deleted -> deleted.rowCount() == 0
                        ? Future.failedFuture(new RecordNotFoundException("item", id))
                        : Future.succeededFuture());
    }

    /** The page's select, skipped when the page starts past the last row; {@code filter} goes before LIMIT's. */
    private Future<Page<Item>> page(long total, PageRequest page, String sql, Tuple filter) {
        long offset = page.offsetWithin(total);
        if (offset < 0) {
            return Future.succeededFuture(new Page<>(List.of(), total));
        }
        return pool.preparedQuery(sql)
                .execute(filter.addInteger(page.size()).addLong(offset))
                .map(rows -> new Page<>(items(rows), total));
    }

    private static Item single(RowSet<Row> rows, long id) {
        List<Item> found = items(rows);
        if (found.isEmpty()) {
            throw new RecordNotFoundException("item", id);
        }
        return found.getFirst();
    }

    private static List<Item> items(RowSet<Row> rows) {
        return rows.stream()
                .map(row -> new Item(
                        row.getLong("id"),
                        row.getString("sku"),
                        row.getString("name"),
                        row.getBigDecimal("price"),
                        row.getInteger("stock"),
                        row.getString("description"),
                        row.getLong("category_id"),
                        row.getString("category_code"),
                        row.getString("category_name"),
                        row.getOffsetDateTime("updated_at").toInstant()))
                .toList();
    }
}
