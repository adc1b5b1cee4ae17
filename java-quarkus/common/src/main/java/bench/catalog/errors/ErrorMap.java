package bench.catalog.errors;

import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DatabaseUnavailableException;
import bench.catalog.data.DriverErrors;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.UnknownCategoryException;
import bench.catalog.http.BodyTooLargeException;
import bench.catalog.http.InvalidParameterException;
import bench.catalog.http.MalformedJsonException;
import bench.catalog.http.NotAnObjectException;
import bench.catalog.http.UnreadBodyException;
import bench.catalog.stock.StockNotFoundException;
import bench.catalog.stock.StockUpstreamException;
import bench.catalog.stock.StockUpstreamTimeoutException;
import jakarta.validation.ConstraintViolation;
import io.quarkus.hibernate.validator.runtime.jaxrs.ResteasyReactiveViolationException;
import jakarta.validation.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Comparator;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place that turns failures into problem JSON: the domain's errors, Hibernate
 * Validator's violations, Jackson's parse errors, a body the client stopped sending, and what
 * Quarkus REST raises itself (404, 405, 415, 413). Every other exception is a logged 500 with a
 * generic detail.
 */
public class ErrorMap {

    private static final Logger LOG = Logger.getLogger(ErrorMap.class);

    private final DriverErrors driver;

    public ErrorMap(DriverErrors driver) {
        this.driver = driver;
    }

    @ServerExceptionMapper
    public Response notFound(RecordNotFoundException e) {
        return problem(Problem.of(404, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response duplicate(DuplicateKeyException e) {
        return problem(Problem.of(409, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response categoryInUse(CategoryInUseException e) {
        return problem(Problem.of(409, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response unknownCategory(UnknownCategoryException e) {
        return problem(Problem.invalid(List.of(new Problem.FieldError("categoryId", e.getMessage()))));
    }

    @ServerExceptionMapper
    public Response unavailable(DatabaseUnavailableException e) {
        return problem(Problem.of(503, "the database is unavailable, try again later"));
    }

    @ServerExceptionMapper
    public Response invalidParameter(InvalidParameterException e) {
        return problem(Problem.of(400, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response noStock(StockNotFoundException e) {
        return problem(Problem.of(404, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response upstreamFailed(StockUpstreamException e) {
        LOG.warnf("stock upstream failed: %s", e.getMessage());
        return problem(Problem.of(502, "the stock service failed"));
    }

    @ServerExceptionMapper
    public Response upstreamTimedOut(StockUpstreamTimeoutException e) {
        LOG.warn("stock upstream did not answer in time");
        return problem(Problem.of(504, "the stock service did not answer in time"));
    }

    /** The body's field rules: every invalid property, by its JSON name. */
    @ServerExceptionMapper
    public Response invalidBody(ResteasyReactiveViolationException e) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .map(violation -> new Problem.FieldError(fieldOf(violation), violation.getMessage()))
                .sorted(Comparator.comparing(Problem.FieldError::field))
                .toList();
        return problem(Problem.invalid(errors));
    }

    @ServerExceptionMapper
    public Response malformedJson(MalformedJsonException e) {
        return problem(Problem.of(400, e.getMessage()));
    }

    /**
     * A body whose read failed part-way, almost always a client that closed its connection: no one
     * is left to read the answer, and the fault is not the server's (nor the database's, which
     * {@link #unexpected} would take any I/O failure for), so one line below warning and no stack
     * trace.
     */
    @ServerExceptionMapper
    public Response unreadBody(UnreadBodyException e, UriInfo uri) {
        LOG.infof("request body of %s not read, the client left or stopped sending: %s", uri.getPath(), rootCause(e));
        return problem(Problem.of(400, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response tooLarge(BodyTooLargeException e) {
        return problem(Problem.of(413, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response notAnObject(NotAnObjectException e) {
        return problem(Problem.invalid(List.of(new Problem.FieldError("", e.getMessage()))));
    }

    /**
     * What Quarkus REST raises itself: unknown routes (404), other methods (405), media types
     * (415), a chunked body over the limit (413). Its 405 carries no {@code Allow}: the methods
     * of the path are {@link Routes}'.
     */
    @ServerExceptionMapper
    public Response framework(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            LOG.error("request failed", e);
            return problem(Problem.of(500, "the server failed to answer this request"));
        }
        Response.ResponseBuilder answer = Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(Problem.of(status, detailOf(status)));
        if (status == 405) {
            answer.header(HttpHeaders.ALLOW, Routes.allowedMethods(uri.getPath()));
        }
        return answer.build();
    }

    /**
     * Unavailable when the driver says so (spec/API.md, "Unavailable: 503"), a logged 500 otherwise.
     * A Throwable, not an Exception: the reactive pool's wait running out fails the request with
     * Vert.x's NoStackTraceThrowable, which an Exception mapper passes by.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (driver.isUnavailable(e)) {
            return unavailable(new DatabaseUnavailableException(e));
        }
        LOG.error("request failed", e);
        return problem(Problem.of(500, "the server failed to answer this request"));
    }

    static Response problem(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }

    private static String detailOf(int status) {
        return switch (status) {
            case 404 -> "no such resource";
            case 405 -> "this path does not serve that method";
            case 413 -> "the body is larger than 1 MiB";
            case 415 -> "the body must be JSON (Content-Type: application/json)";
            default -> "the request cannot be served";
        };
    }

    /** The innermost cause, on one line: Vert.x's {@code HttpClosedException}, say, under Quarkus REST's wrappers. */
    private static String rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /** The JSON property of a violation: the leaf of its path ("" for the body itself). */
    private static String fieldOf(ConstraintViolation<?> violation) {
        String field = "";
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == jakarta.validation.ElementKind.PROPERTY) {
                field = node.getName();
            }
        }
        return field;
    }
}
