package bench.catalog.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.StockNotFoundException;
import bench.catalog.data.UnknownCategoryException;
import bench.catalog.data.UpstreamFailedException;
import bench.catalog.data.UpstreamTimeoutException;
import com.fasterxml.jackson.core.JsonParseException;
import jakarta.persistence.PersistenceException;
import jakarta.validation.ConstraintDeclarationException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.glassfish.jersey.server.ParamException;
import org.hibernate.exception.ConstraintViolationException;
import org.hibernate.exception.GenericJDBCException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one error map: each domain error or database failure to its status, title and (422) field. */
class ExceptionMappersTest {

    private static Problem problem(Response response) {
        Problem problem = (Problem) response.getEntity();
        assertEquals(response.getStatus(), problem.status());
        assertEquals(Problem.MEDIA, response.getMediaType());
        return problem;
    }

    @Test
    void domainErrors() {
        Problem notFound = problem(new ExceptionMappers.DomainErrors().toResponse(new RecordNotFoundException("item", 7)));
        assertEquals(404, notFound.status());
        assertEquals("Not Found", notFound.title());
        assertEquals("item 7 not found", notFound.detail());

        Problem duplicate = problem(new ExceptionMappers.DomainErrors().toResponse(new DuplicateKeyException("sku", "S-1")));
        assertEquals(409, duplicate.status());
        assertEquals("Conflict", duplicate.title());
        assertNull(duplicate.errors());

        Problem inUse = problem(new ExceptionMappers.DomainErrors().toResponse(new CategoryInUseException(3)));
        assertEquals(409, inUse.status());
        assertEquals("category 3 still has items", inUse.detail());

        Problem unknown = problem(new ExceptionMappers.DomainErrors().toResponse(new UnknownCategoryException(5)));
        assertEquals(422, unknown.status());
        assertEquals("Unprocessable Content", unknown.title());
        assertEquals(List.of(new FieldError("categoryId", "category 5 does not exist")), unknown.errors());
    }

    @Test
    void stockUpstreamErrors() {
        Problem noRecord = problem(new ExceptionMappers.DomainErrors().toResponse(new StockNotFoundException(5)));
        assertEquals(404, noRecord.status());
        assertEquals("no stock record for item 5", noRecord.detail());

        Problem failed = problem(new ExceptionMappers.DomainErrors().toResponse(
                new UpstreamFailedException("no answer", new ConnectException("Connection refused"))));
        assertEquals(502, failed.status());
        assertEquals("Bad Gateway", failed.title());
        assertEquals(false, failed.detail().contains("refused"));

        Problem timeout = problem(new ExceptionMappers.DomainErrors().toResponse(
                new UpstreamTimeoutException(new SocketTimeoutException("Read timed out"))));
        assertEquals(504, timeout.status());
        assertEquals("Gateway Timeout", timeout.title());
    }

    @Test
    void frameworkErrorsAre400s() {
        Problem parameter = problem(new ExceptionMappers.WebApplication().toResponse(
                new ParamException.QueryParamException(new NumberFormatException("not an integer"), "size", "20")));
        assertEquals(400, parameter.status());
        assertEquals("size must be an integer", parameter.detail());

        Problem json = problem(new ExceptionMappers.InvalidJson().toResponse(new JsonParseException(null, "Unexpected")));
        assertEquals(400, json.status());
        assertEquals("Bad Request", json.title());
    }

    @Test
    void aClientThatLeftWhileItsBodyWasReadIsOneLineBelowErrorWithoutAStackTrace() {
        List<LogRecord> records = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(ExceptionMappers.class.getName());
        log.addHandler(capture);
        try {
            Problem unread = problem(new ExceptionMappers.UnreadBody().toResponse(
                    new ProcessingException("Error reading entity from input stream.", new EOFException())));
            assertEquals(400, unread.status());
            assertEquals(1, records.size());
            assertTrue(records.getFirst().getLevel().intValue() < Level.WARNING.intValue());
            assertNull(records.getFirst().getThrown());

            records.clear();
            Problem other = problem(new ExceptionMappers.UnreadBody().toResponse(
                    new ProcessingException("no reader", new IllegalStateException("broken"))));
            assertEquals(500, other.status());
            assertEquals(Level.SEVERE, records.getFirst().getLevel());
        } finally {
            log.removeHandler(capture);
        }
    }

    @Test
    void aConstraintDeclaredWronglyIsA500() {
        Problem problem = problem(new ExceptionMappers.InvalidParameters().toResponse(
                new ConstraintDeclarationException("@Min on a String")));
        assertEquals(500, problem.status());
        assertEquals("internal error", problem.detail());
    }

    @ParameterizedTest
    @CsvSource({"08006, 503, Service Unavailable", "53300, 503, Service Unavailable", "57P01, 503, Service Unavailable",
            "23502, 500, Internal Server Error", "23514, 500, Internal Server Error", "57014, 500, Internal Server Error",
            "XX000, 500, Internal Server Error"})
    void databaseFailuresAre503WhenUnavailableAndOtherwiseA500(String state, int status, String title) {
        SQLException driver = new SQLException("detail that must not be shown", state);
        PersistenceException error = state.startsWith("23")
                ? new ConstraintViolationException("insert into item ...", driver, "unexpected")
                : new GenericJDBCException("select ...", driver);
        Problem problem = problem(new ExceptionMappers.DatabaseFailure().toResponse(error));
        assertEquals(status, problem.status());
        assertEquals(title, problem.title());
        assertEquals(false, problem.detail().contains("must not be shown") || problem.detail().contains("insert"));
    }
}
