package bench.catalog.errors;

import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DatabaseErrors;
import bench.catalog.data.DomainException;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.StockNotFoundException;
import bench.catalog.data.UnknownCategoryException;
import bench.catalog.data.UpstreamFailedException;
import bench.catalog.data.UpstreamTimeoutException;
import bench.catalog.http.ServerBusyException;
import com.fasterxml.jackson.core.JacksonException;
import jakarta.persistence.PersistenceException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.jersey.server.ParamException;

/**
 * The one place where failures become HTTP answers: one {@link ExceptionMapper} per kind of
 * failure, each answering problem JSON with its status and, for a 422, the JSON fields. The data
 * layer raises domain errors and leaves database failures as they are, which
 * {@link DatabaseErrors} classifies. Jersey picks the mapper whose exception type is closest, so
 * the specific mappers win over {@link Unexpected}.
 */
public final class ExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ExceptionMappers.class.getName());

    /** Every mapper, for registration with the application. */
    public static final List<Class<?>> ALL = List.of(DomainErrors.class, InvalidFields.class, InvalidParameters.class,
            InvalidJson.class, WebApplication.class, DatabaseFailure.class, UnreadBody.class, Unexpected.class);

    private ExceptionMappers() {
    }

    /**
     * What the data layer refused or did not find, or what the stock upstream did; its message is
     * written for the client. The upstream's failures are its own, not this server's: one line
     * each in the log, no stack trace, no 500.
     */
    public static final class DomainErrors implements ExceptionMapper<DomainException> {
        @Override
        public Response toResponse(DomainException e) {
            Problem problem = switch (e) {
                case RecordNotFoundException _, StockNotFoundException _ -> Problem.of(404, e.getMessage());
                case DuplicateKeyException _, CategoryInUseException _ -> Problem.of(409, e.getMessage());
                // An unknown category is an invalid categoryId of the item body.
                case UnknownCategoryException _ ->
                        Problem.invalid(e.getMessage(), List.of(new FieldError("categoryId", e.getMessage())));
                case UpstreamFailedException failed -> {
                    LOG.warning(() -> "stock upstream failed: " + failed.reason()
                            + (failed.getCause() == null ? "" : " (" + rootCause(failed) + ")"));
                    yield Problem.of(502, e.getMessage());
                }
                case UpstreamTimeoutException _ -> {
                    LOG.warning(() -> "stock upstream timed out: " + rootCause(e));
                    yield Problem.of(504, e.getMessage());
                }
            };
            return problem.toResponse();
        }
    }

    /** 422: a request body that parsed but breaks the field rules, every invalid field listed. */
    public static final class InvalidFields implements ExceptionMapper<InvalidFieldsException> {
        @Override
        public Response toResponse(InvalidFieldsException e) {
            return Problem.invalid(e.getMessage(), e.errors()).toResponse();
        }
    }

    /**
     * 400: a query parameter out of its range, as Bean Validation found it; the messages name it.
     * Any other {@link ValidationException} is a constraint declared wrongly: a logged 500.
     */
    public static final class InvalidParameters implements ExceptionMapper<ValidationException> {
        @Override
        public Response toResponse(ValidationException e) {
            if (e instanceof ConstraintViolationException violations) {
                List<String> messages = violations.getConstraintViolations().stream()
                        .map(ConstraintViolation::getMessage).sorted().toList();
                return Problem.of(400, String.join("; ", messages)).toResponse();
            }
            LOG.log(Level.SEVERE, "invalid constraint declaration", e);
            return Problem.of(500, "internal error").toResponse();
        }
    }

    /** 400: a request body that is not JSON, as Jackson's reader found it. */
    public static final class InvalidJson implements ExceptionMapper<JacksonException> {
        @Override
        public Response toResponse(JacksonException e) {
            return Problem.of(400, "request body is not valid JSON").toResponse();
        }
    }

    /**
     * What Jersey raises, and the application as JAX-RS exceptions: no route (404), a method
     * the path does not serve (405, with Jersey's {@code Allow}), a Content-Type no reader takes
     * (415), a path id or query parameter that is not an integer (400), a body over 1 MiB (413),
     * an empty body (400), the database down for {@code /health} (503), a body refused unread
     * because the server holds as many bodies as it may (503, not logged: it is load, not a fault).
     */
    public static final class WebApplication implements ExceptionMapper<WebApplicationException> {
        @Context
        private UriInfo uriInfo;
        @Context
        private Request request;

        @Override
        public Response toResponse(WebApplicationException e) {
            Response answer = e.getResponse();
            Problem problem = switch (e) {
                // A path or query parameter Jersey could not convert (JAX-RS would say 404).
                case ParamException param -> Problem.of(400, param.getParameterName() + " must be an integer");
                case NotFoundException _ -> Problem.of(404, "no resource at " + uriInfo.getRequestUri().getRawPath());
                case NotAllowedException _ -> Problem.of(405, "method " + request.getMethod() + " is not allowed here");
                case NotSupportedException _ -> Problem.of(415, "Content-Type must be application/json");
                default -> Problem.of(answer.getStatus(), e.getMessage());
            };
            if (problem.status() == 503) {
                // A busy server's refusals are load, not faults: a line for each would only add to it.
                if (!(e instanceof ServerBusyException)) {
                    LOG.warning(() -> "answered 503: " + rootCause(e));
                }
            } else if (problem.status() >= 500) {
                LOG.log(Level.SEVERE, "answered " + problem.status(), e);
            }
            return problem.toResponseBuilder().header(HttpHeaders.ALLOW, answer.getHeaderString(HttpHeaders.ALLOW)).build();
        }
    }

    /**
     * Database failures the repositories did not translate into domain errors: 503 when the
     * database is unavailable ({@link DatabaseErrors#isUnavailable}), otherwise (any other
     * integrity error among them) a 500 whose cause is logged and never shown.
     */
    public static final class DatabaseFailure implements ExceptionMapper<PersistenceException> {
        @Override
        public Response toResponse(PersistenceException e) {
            if (DatabaseErrors.isUnavailable(e)) {
                LOG.warning(() -> "database unavailable: " + rootCause(e));
                return Problem.of(503, "no database connection is available, try again later").toResponse();
            }
            LOG.log(Level.SEVERE, "database error", e);
            return Problem.of(500, "internal error").toResponse();
        }
    }

    /**
     * A request body that could not be read: Jersey wraps the read's {@link IOException} (the
     * client closed or reset its connection part-way, an {@code EOFException} from Grizzly) in a
     * {@link ProcessingException}. The client's doing, not a fault here, and usually no one is left
     * to read the answer: one line below error, no stack trace. Any other cause is {@link Unexpected}'s.
     */
    public static final class UnreadBody implements ExceptionMapper<ProcessingException> {
        @Override
        public Response toResponse(ProcessingException e) {
            if (rootCauseOf(e) instanceof IOException) {
                LOG.info(() -> "request body not read, the client's connection ended: " + rootCause(e));
                return Problem.of(400, "the request body could not be read").toResponse();
            }
            return UNEXPECTED.toResponse(e);
        }
    }

    private static final Unexpected UNEXPECTED = new Unexpected();

    public static final class Unexpected implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            LOG.log(Level.SEVERE, "unexpected error", e);
            return Problem.of(500, "internal error").toResponse();
        }
    }

    private static Throwable rootCauseOf(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    private static String rootCause(Throwable error) {
        Throwable root = rootCauseOf(error);
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
