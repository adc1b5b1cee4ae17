package bench.catalog.http;

import bench.catalog.error.ApiException;
import bench.catalog.error.Problems;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * The server's only handler: a method × path table over exact paths whose segments are literals
 * or one {id}. Unknown paths are 404 and known paths with another method 405 with Allow, both
 * decided here before any handler runs; every failure becomes problem JSON in one place.
 */
public final class Router implements HttpHandler {

    private final List<Route> routes = new ArrayList<>();
    private final boolean logRequests;
    private final Semaphore bodyBytes;

    public Router(boolean logRequests) {
        this(logRequests, Exchange.BODY_BUDGET);
    }

    /** A router whose requests with bodies together are charged at most {@code bodyBudget} bytes. */
    Router(boolean logRequests, int bodyBudget) {
        this.logRequests = logRequests;
        this.bodyBytes = new Semaphore(bodyBudget);
    }

    public Router get(String pattern, Handler handler) {
        return add("GET", pattern, handler);
    }

    public Router post(String pattern, Handler handler) {
        return add("POST", pattern, handler);
    }

    public Router put(String pattern, Handler handler) {
        return add("PUT", pattern, handler);
    }

    public Router delete(String pattern, Handler handler) {
        return add("DELETE", pattern, handler);
    }

    private Router add(String method, String pattern, Handler handler) {
        Route route = routes.stream().filter(r -> r.pattern.equals(pattern)).findFirst().orElseGet(() -> {
            var created = new Route(pattern);
            routes.add(created);
            return created;
        });
        route.handlers.put(method, handler);
        route.allow = String.join(", ", route.handlers.keySet());
        return this;
    }

    @Override
    public void handle(HttpExchange httpExchange) throws IOException {
        long started = System.nanoTime();
        var exchange = new Exchange(httpExchange, bodyBytes);
        try {
            if (Admission.refused()) {
                throw ApiException.busy();
            }
            dispatch(exchange);
        } catch (Throwable failure) {
            exchange.sendProblem(Problems.from(failure));
        } finally {
            httpExchange.close();
            exchange.release();
            if (logRequests) {
                System.out.printf("%s %s %d %.1fms%n", httpExchange.getRequestMethod(), httpExchange.getRequestURI(),
                        httpExchange.getResponseCode(), (System.nanoTime() - started) / 1e6);
            }
        }
    }

    private void dispatch(Exchange exchange) throws Exception {
        String path = exchange.rawPath();
        for (Route route : routes) {
            String id = route.match(path);
            if (id == null) {
                continue;
            }
            Handler handler = route.handlers.get(exchange.method());
            if (handler == null) {
                throw ApiException.methodNotAllowed(exchange.method(), route.allow);
            }
            exchange.pathId(id);
            handler.handle(exchange);
            return;
        }
        throw ApiException.notFound("no resource at " + path);
    }

    private static final class Route {
        private static final String PARAMETER = "{id}";

        final String pattern;
        final String[] segments;
        final Map<String, Handler> handlers = new LinkedHashMap<>();
        String allow;

        Route(String pattern) {
            this.pattern = pattern;
            this.segments = pattern.substring(1).split("/");
        }

        /** The raw {id} segment ("" for routes without one) if the path matches exactly, else null. */
        String match(String path) {
            if (path.isEmpty() || path.charAt(0) != '/') {
                return null;
            }
            String id = "";
            int start = 1;
            for (int i = 0; i < segments.length; i++) {
                int slash = path.indexOf('/', start);
                boolean last = i == segments.length - 1;
                if (last != (slash < 0)) {
                    return null;
                }
                int end = last ? path.length() : slash;
                String segment = segments[i];
                if (segment.equals(PARAMETER)) {
                    if (end == start) {
                        return null;
                    }
                    id = path.substring(start, end);
                } else if (end - start != segment.length() || !path.startsWith(segment, start)) {
                    return null;
                }
                start = end + 1;
            }
            return id;
        }
    }
}
