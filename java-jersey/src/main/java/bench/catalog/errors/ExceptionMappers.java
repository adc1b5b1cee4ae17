package bench.catalog.errors;

import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DatabaseErrors;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.UnknownCategoryException;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one place where failures become HTTP answers: one {@link ExceptionMapper} per kind of
 * error, each answering problem JSON with its status and, for a 422, the JSON field. The data
 * layer raises domain errors (not found, duplicate key, unknown category, category in use) and
 * leaves database failures as they are, which {@link DatabaseErrors} classifies. Jersey picks
 * the mapper whose exception type is closest, so the specific mappers win over
 * {@link WebApplication} and {@link Unexpected}.
 */
public final class ExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ExceptionMappers.class.getName());

    /** Every mapper, for registration with the application. */
    public static final List<Class<?>> ALL = List.of(
            RouteNotFound.class, MethodNotAllowed.class, BadRequest.class,
            UnsupportedMediaType.class, WebApplication.class, RecordNotFound.class, DuplicateKey.class,
            CategoryInUse.class, UnknownCategory.class, InvalidFields.class, DatabaseFailure.class, Unexpected.class);

    private ExceptionMappers() {
    }

    /** 404 for a path no resource serves (also paths with a trailing slash). */
    public static final class RouteNotFound implements ExceptionMapper<NotFoundException> {
        @Context
        private UriInfo uriInfo;

        @Override
        public Response toResponse(NotFoundException e) {
            return Problem.of(404, "no resource at " + uriInfo.getRequestUri().getRawPath()).toResponse();
        }
    }

    /** 405 with Jersey's {@code Allow} header, which lists the methods the path serves. */
    public static final class MethodNotAllowed implements ExceptionMapper<NotAllowedException> {
        @Context
        private Request request;

        @Override
        public Response toResponse(NotAllowedException e) {
            return Problem.of(405, "method " + request.getMethod() + " is not allowed here")
                    .toResponseBuilder()
                    .header(HttpHeaders.ALLOW, e.getResponse().getHeaderString(HttpHeaders.ALLOW))
                    .build();
        }
    }

    /** 400: malformed path id, query parameter or request body; the message was written for the client. */
    public static final class BadRequest implements ExceptionMapper<BadRequestException> {
        @Override
        public Response toResponse(BadRequestException e) {
            return Problem.of(400, e.getMessage()).toResponse();
        }
    }

    public static final class UnsupportedMediaType implements ExceptionMapper<NotSupportedException> {
        @Override
        public Response toResponse(NotSupportedException e) {
            return Problem.of(415, "Content-Type must be application/json").toResponse();
        }
    }

    /** Any other status Jersey or a resource raises (413, 406, 503 from /health, ...). */
    public static final class WebApplication implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            int status = e.getResponse().getStatus();
            if (status == 503) {
                LOG.warning(() -> "answered 503: " + rootCause(e));
            } else if (status >= 500) {
                LOG.log(Level.SEVERE, "answered " + status, e);
            }
            return Problem.of(status, e.getMessage()).toResponse();
        }
    }

    public static final class RecordNotFound implements ExceptionMapper<RecordNotFoundException> {
        @Override
        public Response toResponse(RecordNotFoundException e) {
            return Problem.of(404, e.getMessage()).toResponse();
        }
    }

    public static final class DuplicateKey implements ExceptionMapper<DuplicateKeyException> {
        @Override
        public Response toResponse(DuplicateKeyException e) {
            return Problem.of(409, e.getMessage()).toResponse();
        }
    }

    public static final class CategoryInUse implements ExceptionMapper<CategoryInUseException> {
        @Override
        public Response toResponse(CategoryInUseException e) {
            return Problem.of(409, e.getMessage()).toResponse();
        }
    }

    /** An unknown category is an invalid {@code categoryId} of the item body. */
    public static final class UnknownCategory implements ExceptionMapper<UnknownCategoryException> {
        @Override
        public Response toResponse(UnknownCategoryException e) {
            return Problem.invalid(e.getMessage(), List.of(new FieldError("categoryId", e.getMessage()))).toResponse();
        }
    }

    public static final class InvalidFields implements ExceptionMapper<InvalidFieldsException> {
        @Override
        public Response toResponse(InvalidFieldsException e) {
            return Problem.invalid(e.getMessage(), e.errors()).toResponse();
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

    public static final class Unexpected implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            LOG.log(Level.SEVERE, "unexpected error", e);
            return Problem.of(500, "internal error").toResponse();
        }
    }

    private static String rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
