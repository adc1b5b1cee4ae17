package bench.catalog.reactive;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.impl.NoStackTraceThrowable;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The pool's wait running out is a 503 (spec/API.md, "Unavailable: 503"), as Vert.x fails it. */
class PgErrorsTest {

    private final PgErrors errors = new PgErrors();

    @Test
    void thePoolsTimeoutIsUnavailable() {
        assertTrue(errors.isUnavailable(new NoStackTraceThrowable(PgErrors.POOL_TIMEOUT)));
        assertTrue(errors.isUnavailable(new CompletionException(new NoStackTraceThrowable(PgErrors.POOL_TIMEOUT))));
    }

    @Test
    void anotherNoStackTraceThrowableIsNot() {
        assertFalse(errors.isUnavailable(new NoStackTraceThrowable("something else")));
    }
}
