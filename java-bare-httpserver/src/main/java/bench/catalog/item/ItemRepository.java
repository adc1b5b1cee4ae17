package bench.catalog.item;

import bench.catalog.db.Jdbc;
import bench.catalog.db.Page;
import bench.catalog.db.PageRequest;
import bench.catalog.error.ConstraintViolation;
import bench.catalog.error.ConstraintViolation.Kind;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.OptionalLong;

/** Every read JOINs the category, so a page of items is one statement (plus its count). */
public final class ItemRepository {

    private static final String SELECT = """
            SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id, c.code, c.name, i.updated_at
            FROM item i JOIN category c ON c.id = i.category_id
            """;
    private static final String PAGE = SELECT + "ORDER BY i.id LIMIT ? OFFSET ?";
    private static final String PAGE_OF_CATEGORY = SELECT + "WHERE i.category_id = ? ORDER BY i.id LIMIT ? OFFSET ?";
    private static final String BY_ID = SELECT + "WHERE i.id = ?";
    private static final String COUNT = "SELECT count(*) FROM item";
    private static final String COUNT_OF_CATEGORY = "SELECT count(*) FROM item WHERE category_id = ?";
    /** No row when the category does not exist: its existence and its item count in one statement. */
    private static final String COUNT_OF_EXISTING_CATEGORY =
            "SELECT (SELECT count(*) FROM item WHERE category_id = c.id) FROM category c WHERE c.id = ?";

    // Writes return the row joined with its category in the same statement. The foreign key is
    // checked at the end of the statement, so an unknown category still fails the whole write.
    private static final String RETURNING = """
            RETURNING id, sku, name, price, stock, description, category_id, updated_at)
            SELECT w.id, w.sku, w.name, w.price, w.stock, w.description, w.category_id, c.code, c.name, w.updated_at
            FROM w JOIN category c ON c.id = w.category_id
            """;
    private static final String INSERT = """
            WITH w AS (INSERT INTO item (sku, name, price, stock, description, category_id)
            VALUES (?, ?, ?, ?, ?, ?)
            """ + RETURNING;
    private static final String UPDATE = """
            WITH w AS (UPDATE item SET sku = ?, name = ?, price = ?, stock = ?, description = ?, category_id = ?,
            updated_at = now() WHERE id = ?
            """ + RETURNING;
    private static final String DELETE = "DELETE FROM item WHERE id = ?";

    private final DataSource dataSource;

    public ItemRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** All items, or those of one category (an unknown category gives an empty page). */
    public Page<Item> findPage(OptionalLong categoryId, PageRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            if (categoryId.isEmpty()) {
                long total = Jdbc.one(connection, COUNT, statement -> { }, row -> row.getLong(1)).orElseThrow();
                return Jdbc.page(connection, total, request, ItemRepository::map, PAGE);
            }
            long id = categoryId.getAsLong();
            long total = Jdbc.one(connection, COUNT_OF_CATEGORY, statement -> statement.setLong(1, id),
                    row -> row.getLong(1)).orElseThrow();
            return Jdbc.page(connection, total, request, ItemRepository::map, PAGE_OF_CATEGORY, id);
        }
    }

    /** Empty when the category does not exist. */
    public Optional<Page<Item>> findPageOfCategory(long categoryId, PageRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Optional<Long> total = Jdbc.one(connection, COUNT_OF_EXISTING_CATEGORY,
                    statement -> statement.setLong(1, categoryId), row -> row.getLong(1));
            if (total.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(Jdbc.page(connection, total.get(), request, ItemRepository::map,
                    PAGE_OF_CATEGORY, categoryId));
        }
    }

    public Optional<Item> findById(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.one(connection, BY_ID, statement -> statement.setLong(1, id), ItemRepository::map);
        }
    }

    public Item insert(ItemInput input) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.one(connection, INSERT, statement -> bind(statement, input), ItemRepository::map)
                    .orElseThrow();
        } catch (SQLException e) {
            throwIfWriteViolation(e, input);
            throw e;
        }
    }

    /** Empty when no item has this id. */
    public Optional<Item> update(long id, ItemInput input) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.one(connection, UPDATE, statement -> {
                bind(statement, input);
                statement.setLong(7, id);
            }, ItemRepository::map);
        } catch (SQLException e) {
            throwIfWriteViolation(e, input);
            throw e;
        }
    }

    /** False when no item has this id. */
    public boolean delete(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.update(connection, DELETE, statement -> statement.setLong(1, id)) == 1;
        }
    }

    private static void bind(PreparedStatement statement, ItemInput input) throws SQLException {
        statement.setString(1, input.sku());
        statement.setString(2, input.name());
        statement.setBigDecimal(3, input.price());
        statement.setInt(4, input.stock());
        statement.setString(5, input.description());
        statement.setLong(6, input.categoryId());
    }

    /**
     * An item write can break its unique sku and its category reference, nothing else the schema
     * declares; any other failure is left as it is. PostgreSQL checks the unique sku before the
     * foreign key, so a taken sku is what is reported first.
     */
    static void throwIfWriteViolation(SQLException e, ItemInput input) {
        if (Jdbc.isUniqueViolation(e)) {
            throw new ConstraintViolation(Kind.ITEM_SKU_TAKEN, "sku " + input.sku() + " already exists");
        }
        if (Jdbc.isForeignKeyViolation(e)) {
            throw new ConstraintViolation(Kind.UNKNOWN_CATEGORY, "category " + input.categoryId() + " does not exist");
        }
    }

    private static Item map(ResultSet row) throws SQLException {
        return new Item(row.getLong(1), row.getString(2), row.getString(3), row.getBigDecimal(4), row.getInt(5),
                row.getString(6), row.getLong(7), row.getString(8), row.getString(9),
                row.getObject(10, OffsetDateTime.class).toInstant());
    }
}
