package bench.catalog.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.UnknownCategoryException;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.util.List;
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
        Problem notFound = problem(new ExceptionMappers.RecordNotFound().toResponse(new RecordNotFoundException("item", 7)));
        assertEquals(404, notFound.status());
        assertEquals("Not Found", notFound.title());
        assertEquals("item 7 not found", notFound.detail());

        Problem duplicate = problem(new ExceptionMappers.DuplicateKey().toResponse(new DuplicateKeyException("sku", "S-1")));
        assertEquals(409, duplicate.status());
        assertEquals("Conflict", duplicate.title());
        assertNull(duplicate.errors());

        Problem inUse = problem(new ExceptionMappers.CategoryInUse().toResponse(new CategoryInUseException(3)));
        assertEquals(409, inUse.status());
        assertEquals("category 3 still has items", inUse.detail());

        Problem unknown = problem(new ExceptionMappers.UnknownCategory().toResponse(new UnknownCategoryException(5)));
        assertEquals(422, unknown.status());
        assertEquals("Unprocessable Content", unknown.title());
        assertEquals(List.of(new FieldError("categoryId", "category 5 does not exist")), unknown.errors());
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
