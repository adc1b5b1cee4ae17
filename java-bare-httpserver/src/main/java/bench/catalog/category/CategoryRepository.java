package bench.catalog.category;

import bench.catalog.db.Jdbc;
import bench.catalog.db.Page;
import bench.catalog.db.PageRequest;
import bench.catalog.error.ConstraintViolation;
import bench.catalog.error.ConstraintViolation.Kind;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;

public final class CategoryRepository {

    private static final String COLUMNS = "id, code, name, updated_at";
    private static final String COUNT = "SELECT count(*) FROM category";
    private static final String PAGE = "SELECT " + COLUMNS + " FROM category ORDER BY id LIMIT ? OFFSET ?";
    private static final String BY_ID = "SELECT " + COLUMNS + " FROM category WHERE id = ?";
    private static final String INSERT = "INSERT INTO category (code, name) VALUES (?, ?) RETURNING " + COLUMNS;
    private static final String UPDATE =
            "UPDATE category SET code = ?, name = ?, updated_at = now() WHERE id = ? RETURNING " + COLUMNS;
    private static final String DELETE = "DELETE FROM category WHERE id = ?";

    private final DataSource dataSource;

    public CategoryRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Page<Category> findPage(PageRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            long total = Jdbc.one(connection, COUNT, statement -> { }, row -> row.getLong(1)).orElseThrow();
            return Jdbc.page(connection, total, request, CategoryRepository::map, PAGE);
        }
    }

    public Optional<Category> findById(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.one(connection, BY_ID, statement -> statement.setLong(1, id), CategoryRepository::map);
        }
    }

    public Category insert(CategoryInput input) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.one(connection, INSERT, statement -> {
                statement.setString(1, input.code());
                statement.setString(2, input.name());
            }, CategoryRepository::map).orElseThrow();
        } catch (SQLException e) {
            throwIfWriteViolation(e, input);
            throw e;
        }
    }

    /** Empty when no category has this id. */
    public Optional<Category> update(long id, CategoryInput input) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.one(connection, UPDATE, statement -> {
                statement.setString(1, input.code());
                statement.setString(2, input.name());
                statement.setLong(3, id);
            }, CategoryRepository::map);
        } catch (SQLException e) {
            throwIfWriteViolation(e, input);
            throw e;
        }
    }

    /** False when no category has this id. */
    public boolean delete(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return Jdbc.update(connection, DELETE, statement -> statement.setLong(1, id)) == 1;
        } catch (SQLException e) {
            throwIfDeleteViolation(e, id);
            throw e;
        }
    }

    /** The one unique key a category write can break is its code; any other failure is left as it is. */
    static void throwIfWriteViolation(SQLException e, CategoryInput input) {
        if (Jdbc.isUniqueViolation(e)) {
            throw new ConstraintViolation(Kind.CATEGORY_CODE_TAKEN, "code " + input.code() + " already exists");
        }
    }

    /** The one reference a category delete can break is an item's category; any other failure is left as it is. */
    static void throwIfDeleteViolation(SQLException e, long id) {
        if (Jdbc.isForeignKeyViolation(e)) {
            throw new ConstraintViolation(Kind.CATEGORY_STILL_REFERENCED, "category " + id + " still has items");
        }
    }

    private static Category map(ResultSet row) throws SQLException {
        return new Category(row.getLong(1), row.getString(2), row.getString(3),
                row.getObject(4, OffsetDateTime.class).toInstant());
    }
}
