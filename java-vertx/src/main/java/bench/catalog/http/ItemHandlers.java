package bench.catalog.http;

import bench.catalog.data.Item;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.Page;
import bench.catalog.data.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/** /items, /items/{id} and /categories/{id}/items: HTTP only, the SQL is {@link ItemRepository}'s. */
final class ItemHandlers {

    private final ItemRepository items;

    ItemHandlers(ItemRepository items) {
        this.items = items;
    }

    void list(RoutingContext ctx) {
        Long categoryId = Params.categoryId(ctx);
        PageRequest page = Params.page(ctx);
        Future<Page<Item>> found = categoryId == null
                ? items.list(page)
                : items.listByCategory(categoryId, page);
        found.onSuccess(result -> ctx.json(Representations.page(result, page, Representations::item)))
                .onFailure(ctx::fail);
    }

    void listOfCategory(RoutingContext ctx) {
        PageRequest page = Params.page(ctx);
        items.listOfCategory(Params.id(ctx), page)
                .onSuccess(result -> ctx.json(Representations.page(result, page, Representations::item)))
                .onFailure(ctx::fail);
    }

    void get(RoutingContext ctx) {
        items.find(Params.id(ctx))
                .onSuccess(item -> ctx.json(Representations.item(item)))
                .onFailure(ctx::fail);
    }

    void create(RoutingContext ctx) {
        items.create(Bodies.item(ctx))
                .onSuccess(item -> {
                    ctx.response()
                            .setStatusCode(201)
                            .putHeader(HttpHeaders.LOCATION, "/items/" + item.id());
                    ctx.json(Representations.item(item));
                })
                .onFailure(ctx::fail);
    }

    void replace(RoutingContext ctx) {
        items.replace(Params.id(ctx), Bodies.item(ctx))
                .onSuccess(item -> ctx.json(Representations.item(item)))
                .onFailure(ctx::fail);
    }

    void delete(RoutingContext ctx) {
        items.delete(Params.id(ctx))
                .onSuccess(deleted -> ctx.response().setStatusCode(204).end())
                .onFailure(ctx::fail);
    }
}
