package bench.catalog.item;

import bench.catalog.db.Page;
import bench.catalog.error.ApiException;
import bench.catalog.http.Exchange;
import bench.catalog.http.PageJson;
import bench.catalog.http.Router;
import bench.catalog.json.JsonWriter;

import java.io.IOException;
import java.sql.SQLException;

/** /items, /items/{id} and /categories/{id}/items. */
public final class ItemHandlers {

    private final ItemRepository items;

    public ItemHandlers(ItemRepository items) {
        this.items = items;
    }

    public void register(Router router) {
        router.get("/items", this::list)
                .post("/items", this::create)
                .get("/items/{id}", this::get)
                .put("/items/{id}", this::update)
                .delete("/items/{id}", this::delete)
                .get("/categories/{id}/items", this::listOfCategory);
    }

    private void list(Exchange exchange) throws IOException, SQLException {
        var categoryId = exchange.queryLong("categoryId");
        Page<Item> page = items.findPage(categoryId, exchange.pageRequest());
        exchange.sendJson(200, PageJson.write(page, ItemHandlers::write));
    }

    private void listOfCategory(Exchange exchange) throws IOException, SQLException {
        long categoryId = exchange.pathId();
        Page<Item> page = items.findPageOfCategory(categoryId, exchange.pageRequest())
                .orElseThrow(() -> ApiException.notFound("category " + categoryId + " not found"));
        exchange.sendJson(200, PageJson.write(page, ItemHandlers::write));
    }

    private void get(Exchange exchange) throws IOException, SQLException {
        long id = exchange.pathId();
        Item item = items.findById(id).orElseThrow(() -> notFound(id));
        exchange.sendJson(200, write(new JsonWriter(1024), item));
    }

    private void create(Exchange exchange) throws IOException, SQLException {
        var input = ItemInput.from(exchange.readJson(ItemInput.PROPERTIES));
        Item item = items.insert(input);
        exchange.sendCreated("/items/" + item.id(), write(new JsonWriter(1024), item));
    }

    private void update(Exchange exchange) throws IOException, SQLException {
        long id = exchange.pathId();
        var input = ItemInput.from(exchange.readJson(ItemInput.PROPERTIES));
        Item item = items.update(id, input).orElseThrow(() -> notFound(id));
        exchange.sendJson(200, write(new JsonWriter(1024), item));
    }

    private void delete(Exchange exchange) throws IOException, SQLException {
        long id = exchange.pathId();
        if (!items.delete(id)) {
            throw notFound(id);
        }
        exchange.sendNoContent();
    }

    private static ApiException notFound(long id) {
        return ApiException.notFound("item " + id + " not found");
    }

    static JsonWriter write(JsonWriter w, Item item) {
        return w.beginObject()
                .field("id", item.id())
                .field("sku", item.sku())
                .field("name", item.name())
                .field("price", item.price())
                .field("stock", item.stock())
                .field("description", item.description())
                .field("categoryId", item.categoryId())
                .name("category").beginObject()
                .field("id", item.categoryId())
                .field("code", item.categoryCode())
                .field("name", item.categoryName())
                .endObject()
                .field("updatedAt", item.updatedAt())
                .endObject();
    }
}
