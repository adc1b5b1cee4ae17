package bench.catalog.http;

import bench.catalog.Config;
import bench.catalog.data.CategoryRepository;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.StockClient;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.LoggerFormat;
import io.vertx.ext.web.handler.LoggerHandler;
import io.vertx.sqlclient.Pool;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Every route of spec/API.md, in the order its errors answer ("Which error answers first"). A
 * write is two routes on one path: the first checks the path id (400) and the Content-Type (415)
 * and calls next(); the second takes the body's bytes from the {@link BodyBudget} (503 when it is
 * spent) and reads the body (413, then 400 and 422 in the handler). vertx-web wants nothing but
 * platform handlers before a BodyHandler on its route, and these checks come before the body is read.
 */
public final class Api {

    /** The largest body read (spec/API.md, "Request bodies"); one byte more is a 413. */
    static final long BODY_LIMIT = 1_048_576;

    private final Router router;

    public Api(Vertx vertx, CategoryRepository categories, ItemRepository items, StockClient stock, Pool pool,
            Config config, BodyBudget bodies, RequestHeadTimeout heads) {
        JsonSupport.configure();
        CategoryHandlers categoryHandlers = new CategoryHandlers(categories);
        ItemHandlers itemHandlers = new ItemHandlers(items);
        StockHandlers stockHandlers = new StockHandlers(stock);
        SystemHandlers system = new SystemHandlers(pool, config.avatarBaseUrl(), config.avatarCount());
        // Only JSON reaches it (requireJson runs first), so it never parses a form or keeps an upload.
        BodyHandler body = BodyHandler.create(false).setBodyLimit(BODY_LIMIT);

        router = Router.router(vertx);
        router.route().handler(heads::arrived);
        if (config.logRequests()) {
            router.route().handler(LoggerHandler.create(LoggerFormat.SHORT));
        }
        router.route().handler(Api::exactPath);

        router.get("/categories").handler(categoryHandlers::list);
        router.post("/categories").handler(Api::requireJson);
        router.post("/categories").handler(bodies).handler(body).handler(categoryHandlers::create);
        allow("/categories", HttpMethod.GET, HttpMethod.POST);

        router.get("/categories/:id").handler(Params::parseId).handler(categoryHandlers::get);
        router.put("/categories/:id").handler(Params::parseId).handler(Api::requireJson);
        router.put("/categories/:id").handler(bodies).handler(body).handler(categoryHandlers::replace);
        router.delete("/categories/:id").handler(Params::parseId).handler(categoryHandlers::delete);
        allow("/categories/:id", HttpMethod.GET, HttpMethod.PUT, HttpMethod.DELETE);

        router.get("/categories/:id/items").handler(Params::parseId).handler(itemHandlers::listOfCategory);
        allow("/categories/:id/items", HttpMethod.GET);

        router.get("/items").handler(itemHandlers::list);
        router.post("/items").handler(Api::requireJson);
        router.post("/items").handler(bodies).handler(body).handler(itemHandlers::create);
        allow("/items", HttpMethod.GET, HttpMethod.POST);

        router.get("/items/:id").handler(Params::parseId).handler(itemHandlers::get);
        router.put("/items/:id").handler(Params::parseId).handler(Api::requireJson);
        router.put("/items/:id").handler(bodies).handler(body).handler(itemHandlers::replace);
        router.delete("/items/:id").handler(Params::parseId).handler(itemHandlers::delete);
        allow("/items/:id", HttpMethod.GET, HttpMethod.PUT, HttpMethod.DELETE);

        router.get("/items/:id/stock").handler(Params::parseId).handler(stockHandlers::get);
        allow("/items/:id/stock", HttpMethod.GET);

        router.get("/avatar").handler(system::avatar);
        allow("/avatar", HttpMethod.GET);
        router.get("/health").handler(system::health);
        allow("/health", HttpMethod.GET);

        router.route().failureHandler(Problems::handle);
        for (int status : new int[] {400, 404, 405, 413, 414, 415, 500}) {
            router.errorHandler(status, Problems.forStatus(status));
        }
    }

    public Router router() {
        return router;
    }

    /**
     * The last route of a path: any method its routes above did not take is a 405 with the
     * {@code Allow} header, which vertx-web's own 405 sends only without an error handler.
     */
    private void allow(String path, HttpMethod... methods) {
        String allow = Arrays.stream(methods).map(HttpMethod::name).collect(Collectors.joining(", "));
        router.route(path).handler(ctx -> ctx.fail(new MethodNotAllowedException(allow)));
    }

    /**
     * vertx-web matches {@code /items/} as {@code /items}; the contract's paths match exactly
     * (spec/API.md, "Endpoints"), so a final slash is an unknown route.
     */
    private static void exactPath(RoutingContext ctx) {
        String path = ctx.request().path();
        if (path.length() > 1 && path.endsWith("/")) {
            ctx.fail(404);
        } else {
            ctx.next();
        }
    }

    /** A write must say its body is JSON, in any letter case and with any parameters: 415 otherwise. */
    private static void requireJson(RoutingContext ctx) {
        String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip();
        if (mediaType.equalsIgnoreCase("application/json")) {
            ctx.next();
        } else {
            ctx.fail(415);
        }
    }
}
