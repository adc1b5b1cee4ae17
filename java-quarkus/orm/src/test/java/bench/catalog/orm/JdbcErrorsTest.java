package bench.catalog.orm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.hibernate.exception.GenericJDBCException;
import org.junit.jupiter.api.Test;

/** The pool's wait running out is a 503 (spec/API.md, "Unavailable: 503"), as Hibernate hands it over. */
class JdbcErrorsTest {

    private final JdbcErrors errors = new JdbcErrors();

    @Test
    void agroalsAcquisitionTimeoutUnderHibernateIsUnavailable() {
        SQLException timeout = new SQLException(JdbcErrors.ACQUISITION_TIMEOUT);
        assertTrue(errors.isUnavailable(new GenericJDBCException("Unable to acquire JDBC Connection", timeout)));
    }

    @Test
    void anotherSqlExceptionWithoutSqlStateIsNot() {
        SQLException other = new SQLException("something else");
        assertFalse(errors.isUnavailable(new GenericJDBCException("Unable to acquire JDBC Connection", other)));
    }

    @Test
    void aSqlStateStillDecides() {
        assertTrue(errors.isUnavailable(new RuntimeException(new SQLException("gone", "08006"))));
        assertFalse(errors.isUnavailable(new RuntimeException(new SQLException(JdbcErrors.ACQUISITION_TIMEOUT, "23505"))));
    }
}
