package bench.catalog.http;

import bench.catalog.config.Settings;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/** One line per request when LOG_REQUESTS=true; nothing otherwise. */
public class RequestLog {

    private static final Logger LOG = Logger.getLogger(RequestLog.class);

    private final boolean enabled;

    public RequestLog(Settings settings) {
        this.enabled = settings.logRequests();
    }

    @ServerResponseFilter
    public void log(ContainerRequestContext request, ContainerResponseContext response) {
        if (enabled) {
            LOG.infof("%s %s %d", request.getMethod(), request.getUriInfo().getRequestUri().getRawPath(),
                    response.getStatus());
        }
    }
}
