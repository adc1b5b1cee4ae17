package bench.catalog.http;

import bench.catalog.data.CategoryRepository;
import bench.catalog.data.PageRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/** /categories and /categories/{id}: HTTP only, the SQL is {@link CategoryRepository}'s. */
final class CategoryHandlers {

    private final CategoryRepository categories;

    CategoryHandlers(CategoryRepository categories) {
        this.categories = categories;
    }

    void list(RoutingContext ctx) {
        PageRequest page = Params.page(ctx);
        categories.list(page)
                .onSuccess(found -> ctx.json(Representations.page(found, page, Representations::category)))
                .onFailure(ctx::fail);
    }

    void get(RoutingContext ctx) {
        categories.find(Params.id(ctx))
                .onSuccess(category -> ctx.json(Representations.category(category)))
                .onFailure(ctx::fail);
    }

    void create(RoutingContext ctx) {
        categories.create(Bodies.category(ctx))
                .onSuccess(category -> {
                    ctx.response()
                            .setStatusCode(201)
                            .putHeader(HttpHeaders.LOCATION, "/categories/" + category.id());
                    ctx.json(Representations.category(category));
                })
                .onFailure(ctx::fail);
    }

    void replace(RoutingContext ctx) {
        categories.replace(Params.id(ctx), Bodies.category(ctx))
                .onSuccess(category -> ctx.json(Representations.category(category)))
                .onFailure(ctx::fail);
    }

    void delete(RoutingContext ctx) {
        categories.delete(Params.id(ctx))
                .onSuccess(deleted -> ctx.response().setStatusCode(204).end())
                .onFailure(ctx::fail);
    }
}
