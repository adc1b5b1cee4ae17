package bench.catalog.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The little JDBC plumbing the repositories share: prepared statements in, rows out. */
public final class Jdbc {

    private static final String UNIQUE_VIOLATION = "23505";
    private static final String FOREIGN_KEY_VIOLATION = "23503";

    private Jdbc() {
    }

    @FunctionalInterface
    public interface Parameters {
        void bind(PreparedStatement statement) throws SQLException;
    }

    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    public static <T> List<T> list(Connection connection, String sql, Parameters parameters, RowMapper<T> mapper)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                var result = new ArrayList<T>();
                while (rows.next()) {
                    result.add(mapper.map(rows));
                }
                return result;
            }
        }
    }

    public static <T> Optional<T> one(Connection connection, String sql, Parameters parameters, RowMapper<T> mapper)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(mapper.map(rows)) : Optional.empty();
            }
        }
    }

    public static int update(Connection connection, String sql, Parameters parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.bind(statement);
            return statement.executeUpdate();
        }
    }

    /**
     * The rows of a page for {@code sql}, whose last two parameters are LIMIT and OFFSET and whose
     * first ones take {@code filter}. A page that starts at or past {@code total} (or whose offset
     * overflows) is empty without asking the database.
     */
    public static <T> Page<T> page(Connection connection, long total, PageRequest request, RowMapper<T> mapper,
                                   String sql, long... filter) throws SQLException {
        var offset = request.offset();
        if (offset.isEmpty() || offset.getAsLong() >= total) {
            return new Page<>(List.of(), request, total);
        }
        List<T> content = list(connection, sql, statement -> {
            for (int i = 0; i < filter.length; i++) {
                statement.setLong(i + 1, filter[i]);
            }
            statement.setInt(filter.length + 1, request.size());
            statement.setLong(filter.length + 2, offset.getAsLong());
        }, mapper);
        return new Page<>(content, request, total);
    }

    public static boolean isUniqueViolation(SQLException e) {
        return UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    public static boolean isForeignKeyViolation(SQLException e) {
        return FOREIGN_KEY_VIOLATION.equals(e.getSQLState());
    }
}
