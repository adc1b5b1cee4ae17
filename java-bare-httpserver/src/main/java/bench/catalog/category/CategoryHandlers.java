package bench.catalog.category;

import bench.catalog.db.Page;
import bench.catalog.error.ApiException;
import bench.catalog.http.Exchange;
import bench.catalog.http.PageJson;
import bench.catalog.http.Router;
import bench.catalog.json.JsonWriter;

import java.io.IOException;
import java.sql.SQLException;

/** /categories and /categories/{id}; /categories/{id}/items is with the items. */
public final class CategoryHandlers {

    private final CategoryRepository categories;

    public CategoryHandlers(CategoryRepository categories) {
        this.categories = categories;
    }

    public void register(Router router) {
        router.get("/categories", this::list)
                .post("/categories", this::create)
                .get("/categories/{id}", this::get)
                .put("/categories/{id}", this::update)
                .delete("/categories/{id}", this::delete);
    }

    private void list(Exchange exchange) throws IOException, SQLException {
        Page<Category> page = categories.findPage(exchange.pageRequest());
        exchange.sendJson(200, PageJson.write(page, CategoryHandlers::write));
    }

    private void get(Exchange exchange) throws IOException, SQLException {
        long id = exchange.pathId();
        Category category = categories.findById(id).orElseThrow(() -> notFound(id));
        exchange.sendJson(200, write(new JsonWriter(), category));
    }

    private void create(Exchange exchange) throws IOException, SQLException {
        var input = CategoryInput.from(exchange.readJson(CategoryInput.PROPERTIES));
        Category category = categories.insert(input);
        exchange.sendCreated("/categories/" + category.id(), write(new JsonWriter(), category));
    }

    private void update(Exchange exchange) throws IOException, SQLException {
        long id = exchange.pathId();
        var input = CategoryInput.from(exchange.readJson(CategoryInput.PROPERTIES));
        Category category = categories.update(id, input).orElseThrow(() -> notFound(id));
        exchange.sendJson(200, write(new JsonWriter(), category));
    }

    private void delete(Exchange exchange) throws IOException, SQLException {
        long id = exchange.pathId();
        if (!categories.delete(id)) {
            throw notFound(id);
        }
        exchange.sendNoContent();
    }

    private static ApiException notFound(long id) {
        return ApiException.notFound("category " + id + " not found");
    }

    static JsonWriter write(JsonWriter w, Category category) {
        return w.beginObject()
                .field("id", category.id())
                .field("code", category.code())
                .field("name", category.name())
                .field("updatedAt", category.updatedAt())
                .endObject();
    }
}
