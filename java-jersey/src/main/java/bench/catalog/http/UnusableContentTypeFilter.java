package bench.catalog.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * Drops a {@code Content-Type} that Jersey cannot read as one media type ({@code ;;},
 * {@code no/such; =}, or the header sent twice). Jersey would answer those with a bare 400 while
 * selecting the resource method, before any resource or mapper sees the request. API.md ignores
 * the Content-Type of a read, and a write without a JSON one is a 415. Without the header, a read
 * goes on as usual, and a write reaches {@link JsonBodyReader} as one without a Content-Type: a
 * 415, in API.md's order, after the route, the method and the path and query checks.
 */
@PreMatching
public final class UnusableContentTypeFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        List<String> values = request.getHeaders().get(HttpHeaders.CONTENT_TYPE);
        if (values != null && !values.isEmpty() && !(values.size() == 1 && parses(values.get(0)))) {
            request.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
        }
    }

    private static boolean parses(String value) {
        try {
            MediaType.valueOf(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
