package bench.catalog.db;

import bench.catalog.Config;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The connection pool: HikariCP over the PostgreSQL JDBC driver. */
public final class Database implements AutoCloseable {

    /** A request that cannot get a connection within this time gets a 503. */
    private static final long CONNECTION_TIMEOUT_MS = 5_000;

    private final HikariDataSource dataSource;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Opens the pool and its first connection: fails at once when the database cannot be reached. */
    public static Database open(Config config) {
        var hikari = new HikariConfig();
        hikari.setPoolName("catalog");
        hikari.setJdbcUrl(config.jdbcUrl());
        hikari.setUsername(config.dbUser());
        hikari.setPassword(config.dbPassword());
        // A fixed-size pool, as HikariCP's documentation recommends.
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setMinimumIdle(config.poolSize());
        hikari.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
        // Validation of an idle connection must not eat the whole 5 s budget when the server is gone.
        hikari.setValidationTimeout(1_000);
        hikari.addDataSourceProperty("ApplicationName", "java-bare-httpserver");
        hikari.addDataSourceProperty("connectTimeout", "5");
        hikari.addDataSourceProperty("tcpKeepAlive", "true");
        // Keeps row values (the DETAIL of a constraint violation) out of exception messages and logs.
        hikari.addDataSourceProperty("logServerErrorDetail", "false");
        return new Database(new HikariDataSource(hikari));
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public void ping() throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement("SELECT 1")) {
            statement.execute();
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
