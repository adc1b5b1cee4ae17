package bench.catalog.error;

import java.io.Serial;

/** A request the HTTP layer refuses on its own: the status and a detail for the client. */
public final class ApiException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String allow;

    private ApiException(int status, String detail, String allow) {
        super(detail, null, false, false);
        this.status = status;
        this.allow = allow;
    }

    public static ApiException badRequest(String detail) {
        return new ApiException(400, detail, null);
    }

    public static ApiException notFound(String detail) {
        return new ApiException(404, detail, null);
    }

    public static ApiException methodNotAllowed(String method, String allow) {
        return new ApiException(405, "method " + method + " is not allowed here; allowed: " + allow, allow);
    }

    public static ApiException contentTooLarge(long limit) {
        return new ApiException(413, "request body is larger than " + limit + " bytes", null);
    }

    public static ApiException unsupportedMediaType() {
        return new ApiException(415, "Content-Type must be application/json", null);
    }

    /** More request bodies are being read than the server holds at once; the client may try again. */
    public static ApiException busy() {
        return new ApiException(503, "the server is busy, try again later", null);
    }

    public int status() {
        return status;
    }

    /** The Allow header of a 405, else null. */
    public String allow() {
        return allow;
    }
}
