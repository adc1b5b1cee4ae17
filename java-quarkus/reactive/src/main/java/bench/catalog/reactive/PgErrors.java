package bench.catalog.reactive;

import bench.catalog.data.DriverErrors;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.hibernate.exception.ConstraintViolationException;

/**
 * The Vert.x PostgreSQL client's errors: its PgException carries the SQLSTATE and the name of
 * the constraint, which Hibernate Reactive passes on, converted or not.
 */
@ApplicationScoped
public class PgErrors implements DriverErrors {

    /** What Vert.x's pool says when no connection frees up in time. */
    static final String POOL_TIMEOUT = "Timeout";

    @Override
    public String sqlStateOf(Throwable cause) {
        return cause instanceof PgException pg ? pg.getSqlState() : null;
    }

    /** Vert.x fails the pool's wait (PoolCreator's timeout) with a NoStackTraceThrowable saying "Timeout". */
    @Override
    public boolean isPoolTimeout(Throwable cause) {
        return cause instanceof NoStackTraceThrowable && POOL_TIMEOUT.equals(cause.getMessage());
    }

    /** The constraint a write broke, whichever of the two reports it. */
    static Optional<String> constraint(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConstraintViolationException violation && violation.getConstraintName() != null) {
                return Optional.of(violation.getConstraintName());
            }
            if (cause instanceof PgException pg && pg.getConstraint() != null) {
                return Optional.of(pg.getConstraint());
            }
        }
        return Optional.empty();
    }
}
