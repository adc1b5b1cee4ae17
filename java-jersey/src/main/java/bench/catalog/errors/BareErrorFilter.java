package bench.catalog.errors;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.lang.annotation.Annotation;

/**
 * Gives a problem body to an error response that has none. Jersey answers a few failures
 * itself, without consulting the exception mappers: an unparseable request header (an Accept of
 * ";;;") is a bare 400. (An unparseable Content-Type never gets that far: it is dropped by
 * {@code UnusableContentTypeFilter}.)
 */
public final class BareErrorFilter implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() >= 400 && !response.hasEntity()) {
            String detail = response.getStatus() == 400 ? "malformed request" : "the request could not be processed";
            response.setEntity(Problem.of(response.getStatus(), detail), new Annotation[0], Problem.MEDIA);
        }
    }
}
