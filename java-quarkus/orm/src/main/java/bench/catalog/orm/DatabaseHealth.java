package bench.catalog.orm;

import bench.catalog.data.DatabaseUnavailableException;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** {@code SELECT 1} on a pooled connection: the contract's health check. */
@ApplicationScoped
public class DatabaseHealth {

    private final AgroalDataSource dataSource;

    public DatabaseHealth(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public void check() {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1");
        } catch (SQLException e) {
            throw new DatabaseUnavailableException(e);
        }
    }
}
