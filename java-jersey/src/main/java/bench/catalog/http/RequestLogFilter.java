package bench.catalog.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import java.util.logging.Logger;

/** One line per request; registered only when LOG_REQUESTS=true. */
@PreMatching
public final class RequestLogFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final Logger LOG = Logger.getLogger(RequestLogFilter.class.getName());
    private static final String STARTED = RequestLogFilter.class.getName() + ".started";

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(STARTED, System.nanoTime());
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object started = request.getProperty(STARTED);
        double millis = started instanceof Long nanos ? (System.nanoTime() - nanos) / 1e6 : 0;
        LOG.info(() -> String.format("%s %s %d %.1f ms", request.getMethod(),
                request.getUriInfo().getRequestUri().getRawPath(), response.getStatus(), millis));
    }
}
