package bench.catalog.stock;

import bench.catalog.http.Exchange;
import bench.catalog.http.Router;
import bench.catalog.json.JsonWriter;

import java.io.IOException;

/** /items/{id}/stock: the stock upstream's quantity of the item; nothing is read from the database. */
public final class StockHandlers {

    private final StockClient stock;

    public StockHandlers(StockClient stock) {
        this.stock = stock;
    }

    public void register(Router router) {
        router.get("/items/{id}/stock", this::get);
    }

    /** The id is the client's to parse (400 before the upstream is asked) and the upstream's to judge. */
    private void get(Exchange exchange) throws IOException, InterruptedException {
        long id = exchange.pathId();
        int quantity = stock.quantity(id);
        exchange.sendJson(200, new JsonWriter(64).beginObject()
                .field("itemId", id)
                .field("quantity", quantity)
                .endObject());
    }
}
