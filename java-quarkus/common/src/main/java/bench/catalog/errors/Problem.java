package bench.catalog.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/** RFC 9457 problem details (spec/API.md, "Problem details"); {@code errors} on a 422 alone. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** One invalid property: its JSON name, or "" for the body as a whole. */
    public record FieldError(String field, String message) {
    }

    // RFC 9110's reason phrases, word for word: Quarkus' own table still has older ones.
    private static final Map<Integer, String> TITLES = Map.ofEntries(
            Map.entry(400, "Bad Request"),
            Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"),
            Map.entry(406, "Not Acceptable"),
            Map.entry(408, "Request Timeout"),
            Map.entry(409, "Conflict"),
            Map.entry(413, "Content Too Large"),
            Map.entry(414, "URI Too Long"),
            Map.entry(415, "Unsupported Media Type"),
            Map.entry(422, "Unprocessable Content"),
            Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(500, "Internal Server Error"),
            Map.entry(501, "Not Implemented"),
            Map.entry(502, "Bad Gateway"),
            Map.entry(503, "Service Unavailable"),
            Map.entry(504, "Gateway Timeout"));

    public static Problem of(int status, String detail) {
        return new Problem("about:blank", title(status), status, detail, null);
    }

    public static Problem invalid(List<FieldError> errors) {
        return new Problem("about:blank", title(422), 422, "the body is not a valid write body", errors);
    }

    public static String title(int status) {
        return TITLES.getOrDefault(status, status < 500 ? "Bad Request" : "Internal Server Error");
    }
}
