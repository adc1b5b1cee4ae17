package bench.catalog.orm;

import bench.catalog.data.DriverErrors;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;

/**
 * The JDBC driver's errors: their SQLSTATE is the SQLException's own, which SqlStates reads. Agroal's
 * wait for a pooled connection running out ({@code quarkus.datasource.jdbc.acquisition-timeout})
 * is a SQLException with neither a SQLSTATE nor a type of its own: told by its message, it is
 * "unavailable", as spec/API.md counts no pool connection free in time.
 */
@ApplicationScoped
public class JdbcErrors implements DriverErrors {

    /** Agroal's words for it ({@code io.agroal.pool.ConnectionPool}), the only mark it carries. */
    static final String ACQUISITION_TIMEOUT = "Sorry, acquisition timeout!";

    @Override
    public String sqlStateOf(Throwable cause) {
        return null;
    }

    @Override
    public boolean isPoolTimeout(Throwable cause) {
        return cause instanceof SQLException sql && sql.getSQLState() == null
                && ACQUISITION_TIMEOUT.equals(sql.getMessage());
    }
}
