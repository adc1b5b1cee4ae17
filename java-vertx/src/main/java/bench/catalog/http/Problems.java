package bench.catalog.http;

import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.CodeTakenException;
import bench.catalog.data.DatabaseUnavailableException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.SkuTakenException;
import bench.catalog.data.StockNotFoundException;
import bench.catalog.data.UnknownCategoryException;
import bench.catalog.data.UpstreamFailedException;
import bench.catalog.data.UpstreamTimeoutException;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one error map: every failure of a route, and every answer of the router itself (no route,
 * a body over the limit), becomes RFC 9457 problem details with the RFC 9110 reason phrase.
 */
final class Problems {

    private static final Logger LOG = Logger.getLogger(Problems.class.getName());

    private Problems() {}

    /** The failure handler of every route: what a handler failed with, or the status it failed with. */
    static void handle(RoutingContext ctx) {
        answer(ctx, ctx.statusCode());
    }

    /** The router's error handler for a status it answers by itself: no route, a request it could not decode. */
    static Handler<RoutingContext> forStatus(int status) {
        return ctx -> answer(ctx, status);
    }

    private static void answer(RoutingContext ctx, int status) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        Throwable failure = ctx.failure();
        switch (failure) {
            case BadRequestException e -> send(ctx, 400, e.getMessage());
            case RecordNotFoundException e -> send(ctx, 404, e.getMessage());
            case MethodNotAllowedException e -> {
                ctx.response().putHeader(HttpHeaders.ALLOW, e.allow());
                send(ctx, 405, "use " + e.allow() + " on this path");
            }
            case CodeTakenException e -> send(ctx, 409, e.getMessage());
            case SkuTakenException e -> send(ctx, 409, e.getMessage());
            case CategoryInUseException e -> send(ctx, 409, e.getMessage());
            case InvalidFieldsException e -> invalid(ctx, e.errors());
            case UnknownCategoryException e ->
                    invalid(ctx, List.of(new InvalidFieldsException.FieldError("categoryId", e.getMessage())));
            case DatabaseUnavailableException e -> send(ctx, 503, "the database is unavailable; try again later");
            case ServerBusyException e -> {
                // Its body was never read, so the connection cannot carry another request.
                ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
                send(ctx, 503, e.getMessage()).onComplete(sent -> ctx.request().connection().close());
            }
            case StockNotFoundException e -> send(ctx, 404, e.getMessage());
            // The upstream's failures are its own, not this server's: one line each, no stack trace.
            case UpstreamFailedException e -> {
                LOG.warning(() -> "stock upstream failed: " + e.getMessage());
                send(ctx, 502, "the stock service gave no usable answer");
            }
            case UpstreamTimeoutException e -> {
                LOG.warning(() -> "stock upstream timed out: " + e.getMessage());
                send(ctx, 504, "the stock service did not answer in time");
            }
            // The request's own connection failed under it: the client reset it while its body was
            // read, and the BodyHandler failed the route with the socket's error. Its doing, not a
            // fault here: one line, no stack trace. (A client that closes instead is the closed
            // response above; the database's and the upstream's I/O failures never get here as
            // such: DatabaseErrors, StockClient.)
            case IOException e -> {
                LOG.info(() -> "request body of " + ctx.request().method() + " " + ctx.request().path()
                        + " not read, the client's connection failed: " + e);
                send(ctx, 400, "the request body could not be read");
            }
            case HttpException e when e.getStatusCode() < 500 -> byStatus(ctx, e.getStatusCode());
            case null, default -> {
                if (status >= 400 && status < 500) {
                    byStatus(ctx, status);
                } else {
                    internalError(ctx, failure);
                }
            }
        }
    }

    /** What vertx-web answers by status alone: no route, a body too large, a request it could not decode. */
    private static void byStatus(RoutingContext ctx, int status) {
        switch (status) {
            case 400 -> send(ctx, 400, "the request could not be read");
            case 404 -> send(ctx, 404, "no resource at " + ctx.request().path());
            case 413 -> send(ctx, 413, "the body must be at most " + Api.BODY_LIMIT + " bytes");
            case 415 -> send(ctx, 415, "the body must be JSON, sent as Content-Type: application/json");
            default -> send(ctx, status, "the request was refused");
        }
    }

    private static void invalid(RoutingContext ctx, List<InvalidFieldsException.FieldError> errors) {
        JsonArray fields = new JsonArray(errors.stream()
                .map(error -> new JsonObject().put("field", error.field()).put("message", error.message()))
                .toList());
        send(ctx, 422, "the body has invalid fields", fields);
    }

    private static void internalError(RoutingContext ctx, Throwable failure) {
        LOG.log(Level.SEVERE, "500 on " + ctx.request().method() + " " + ctx.request().path(), failure);
        send(ctx, 500, "the server could not answer this request");
    }

    private static Future<Void> send(RoutingContext ctx, int status, String detail) {
        return send(ctx, status, detail, null);
    }

    private static Future<Void> send(RoutingContext ctx, int status, String detail, JsonArray errors) {
        JsonObject problem = new JsonObject()
                .put("type", "about:blank")
                .put("title", title(status))
                .put("status", status)
                .put("detail", detail);
        if (errors != null) {
            problem.put("errors", errors);
        }
        return ctx.response()
                .setStatusCode(status)
                .setStatusMessage(title(status))
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/problem+json")
                .end(problem.toBuffer());
    }

    /** RFC 9110's reason phrases, where Netty's table still has older ones for 413 and 422. */
    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 422 -> "Unprocessable Content";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> HttpResponseStatus.valueOf(status).reasonPhrase();
        };
    }
}
