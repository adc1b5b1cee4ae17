package bench.catalog.http;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;

/** Jersey matches {@code /items/} like {@code /items}; API.md wants exact paths, so it is a 404. */
@PreMatching
public final class NoTrailingSlashFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getRequestUri().getRawPath();
        if (path.length() > 1 && path.endsWith("/")) {
            throw new NotFoundException();
        }
    }
}
