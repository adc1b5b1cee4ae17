package bench.catalog.http;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The checks spec/API.md puts before the body is read, in its order ("Which error answers
 * first"): the path id (400), then a write's Content-Type (415). Quarkus REST reads the body
 * before it converts parameters and matches {@code @Consumes} before either, so neither order
 * holds on its own: this filter runs after routing (404, 405) and before the body.
 */
public class RequestPreconditions {

    /**
     * Paths match exactly (spec/API.md, "Endpoints"), but Quarkus REST serves {@code /items/} as
     * {@code /items}: a path that ends in a slash names no route.
     */
    @ServerRequestFilter(preMatching = true)
    public void exactPaths(UriInfo uri) {
        String path = uri.getPath();
        if (path.length() > 1 && path.endsWith("/")) {
            throw new NotFoundException();
        }
    }

    @ServerRequestFilter
    public void check(ContainerRequestContext request, UriInfo uri) {
        List<String> ids = uri.getPathParameters().get("id");
        if (ids != null) {
            StrictIntegers.parse("the path id", ids.get(0));
        }
        String method = request.getMethod();
        if (HttpMethod.POST.equals(method) || HttpMethod.PUT.equals(method)) {
            if (!isJson(request.getHeaderString(HttpHeaders.CONTENT_TYPE))) {
                throw new NotSupportedException();
            }
        }
    }

    /** {@code application/json} in any letter case, with or without parameters; nothing else. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        try {
            MediaType type = MediaType.valueOf(contentType);
            return "application".equalsIgnoreCase(type.getType()) && "json".equalsIgnoreCase(type.getSubtype());
        } catch (IllegalArgumentException e) {
            return false; // not one well-formed media type
        }
    }
}
