package bench.catalog.error;

import bench.catalog.db.DatabaseFailures;
import bench.catalog.json.JsonParseException;

import java.util.List;

/**
 * The one place where a failure becomes an HTTP problem: status, title and, for a 422, the JSON
 * properties at fault. Anything it does not know is a 500, logged with its cause.
 */
public final class Problems {

    private static final System.Logger LOG = System.getLogger(Problems.class.getName());

    private Problems() {
    }

    public static Problem from(Throwable failure) {
        return switch (failure) {
            case ApiException e -> problem(e.status(), e.getMessage(), List.of(), e.allow());
            case JsonParseException e -> problem(400, "request body is not valid JSON: " + e.getMessage());
            case ValidationException e -> problem(422, "request body has invalid fields", e.errors(), null);
            case ConstraintViolation e -> switch (e.kind()) {
                case CATEGORY_CODE_TAKEN, ITEM_SKU_TAKEN, CATEGORY_STILL_REFERENCED -> problem(409, e.getMessage());
                case UNKNOWN_CATEGORY -> problem(422, e.getMessage(),
                        List.of(new FieldError("categoryId", e.getMessage())), null);
            };
            // The upstream's failures are its own, not this server's: one line each, no stack trace.
            case UpstreamException e -> switch (e.kind()) {
                case NO_RECORD -> problem(404, e.getMessage());
                case BAD_ANSWER -> {
                    LOG.log(System.Logger.Level.WARNING, "stock upstream failed: " + e.getMessage());
                    yield problem(502, "the stock service gave no usable answer");
                }
                case TIMEOUT -> {
                    LOG.log(System.Logger.Level.WARNING, "stock upstream timed out: " + e.getMessage());
                    yield problem(504, "the stock service did not answer in time");
                }
            };
            default -> {
                if (DatabaseFailures.isUnavailable(failure)) {
                    yield problem(503, "the database is unavailable, try again later");
                }
                LOG.log(System.Logger.Level.ERROR, "request failed", failure);
                yield problem(500, "an unexpected error occurred");
            }
        };
    }

    private static Problem problem(int status, String detail) {
        return problem(status, detail, List.of(), null);
    }

    private static Problem problem(int status, String detail, List<FieldError> errors, String allow) {
        return new Problem(status, title(status), detail, errors, allow);
    }

    /** The reason phrases of RFC 9110. */
    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 415 -> "Unsupported Media Type";
            case 422 -> "Unprocessable Content";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "Internal Server Error";
        };
    }
}
