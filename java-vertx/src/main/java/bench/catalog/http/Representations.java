package bench.catalog.http;

import bench.catalog.data.Category;
import bench.catalog.data.Item;
import bench.catalog.data.Page;
import bench.catalog.data.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;

/** The JSON the API answers (spec/API.md, "Resources" and "Paging"). */
final class Representations {

    private Representations() {}

    static JsonObject category(Category category) {
        return new JsonObject()
                .put("id", category.id())
                .put("code", category.code())
                .put("name", category.name())
                .put("updatedAt", category.updatedAt());
    }

    static JsonObject item(Item item) {
        return new JsonObject()
                .put("id", item.id())
                .put("sku", item.sku())
                .put("name", item.name())
                .put("price", item.price())
                .put("stock", item.stock())
                .put("description", item.description())
                .put("categoryId", item.categoryId())
                .put("category", new JsonObject()
                        .put("id", item.categoryId())
                        .put("code", item.categoryCode())
                        .put("name", item.categoryName()))
                .put("updatedAt", item.updatedAt());
    }

    /** The shape Spring Data gives a page; {@code totalPages} is 0 when there are no elements. */
    static <T> JsonObject page(Page<T> page, PageRequest request, Function<T, JsonObject> representation) {
        long totalPages = (page.totalElements() + request.size() - 1) / request.size();
        return new JsonObject()
                .put("content", new JsonArray(page.content().stream().map(representation).toList()))
                .put("page", new JsonObject()
                        .put("size", request.size())
                        .put("number", request.number())
                        .put("totalElements", page.totalElements())
                        .put("totalPages", totalPages));
    }
}
