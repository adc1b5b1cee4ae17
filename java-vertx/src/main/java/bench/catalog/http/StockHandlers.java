package bench.catalog.http;

import bench.catalog.data.StockClient;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** /items/{id}/stock: the stock upstream's quantity of the item; nothing is read from the database. */
final class StockHandlers {

    private final StockClient stock;

    StockHandlers(StockClient stock) {
        this.stock = stock;
    }

    void get(RoutingContext ctx) {
        long id = Params.id(ctx);
        stock.quantity(id)
                .onSuccess(quantity -> ctx.json(new JsonObject().put("itemId", id).put("quantity", quantity)))
                .onFailure(ctx::fail);
    }
}
