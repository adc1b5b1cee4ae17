package bench.catalog.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/** An RFC 9457 problem document; {@code errors} is present on 422s only. */
public record Problem(String type, String title, int status, String detail,
                      @JsonInclude(JsonInclude.Include.NON_NULL) List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final MediaType MEDIA = MediaType.valueOf(MEDIA_TYPE);

    // RFC 9110's reason phrases, which JAX-RS's Status enum lacks (422) or words differently (413).
    private static final Map<Integer, String> TITLES = Map.ofEntries(
            Map.entry(400, "Bad Request"),
            Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"),
            Map.entry(406, "Not Acceptable"),
            Map.entry(409, "Conflict"),
            Map.entry(413, "Content Too Large"),
            Map.entry(415, "Unsupported Media Type"),
            Map.entry(422, "Unprocessable Content"),
            Map.entry(500, "Internal Server Error"),
            Map.entry(502, "Bad Gateway"),
            Map.entry(503, "Service Unavailable"),
            Map.entry(504, "Gateway Timeout"));

    public static Problem of(int status, String detail) {
        return new Problem("about:blank", title(status), status, detail, null);
    }

    public static Problem invalid(String detail, List<FieldError> errors) {
        return new Problem("about:blank", title(422), 422, detail, errors);
    }

    static String title(int status) {
        String title = TITLES.get(status);
        if (title != null) {
            return title;
        }
        Response.Status known = Response.Status.fromStatusCode(status);
        return known != null ? known.getReasonPhrase() : "HTTP " + status;
    }

    /** A response builder with this problem as its body, for callers to add headers to. */
    public Response.ResponseBuilder toResponseBuilder() {
        return Response.status(status, title).type(MEDIA).entity(this);
    }

    public Response toResponse() {
        return toResponseBuilder().build();
    }
}
