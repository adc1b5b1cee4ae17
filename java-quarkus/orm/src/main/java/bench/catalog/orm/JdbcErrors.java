package bench.catalog.orm;

import bench.catalog.data.DriverErrors;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The JDBC driver's errors: their SQLSTATE is the SQLException's own, which SqlStates reads.
 */
@ApplicationScoped
public class JdbcErrors implements DriverErrors {

    @Override
    public String sqlStateOf(Throwable cause) {
        return null;
    }
}
