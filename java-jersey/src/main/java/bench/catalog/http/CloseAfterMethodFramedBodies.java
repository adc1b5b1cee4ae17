package bench.catalog.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/**
 * Answers {@code TRACE}, {@code CONNECT} and {@code PRI} with {@code Connection: close}. Grizzly
 * frames the body of these three by method, not by their headers: it never reads one on a TRACE
 * (a kept-alive connection then reads the body as the next request line and answers that request
 * 505) and always expects one on CONNECT and PRI (the next request is swallowed as the body, and
 * its client waits for ever). No client of this API sends these methods; their own answer stays
 * Jersey's (405 with {@code Allow}, or 404), and closing the connection after it keeps the next
 * request on a fresh connection, where it is read correctly.
 */
public final class CloseAfterMethodFramedBodies implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        switch (request.getMethod()) {
            case "TRACE", "CONNECT", "PRI" -> response.getHeaders().putSingle("Connection", "close");
            default -> {
                // framed by its headers, as HTTP says: the connection stays open
            }
        }
    }
}
