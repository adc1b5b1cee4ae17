package bench.catalog.http;

import bench.catalog.data.Category;
import bench.catalog.data.Item;
import java.math.BigDecimal;
import java.time.Instant;

/** An item as the API answers it, with exactly {@code {id, code, name}} of its category. */
public record ItemView(
        long id,
        String sku,
        String name,
        BigDecimal price,
        int stock,
        String description,
        long categoryId,
        CategoryRef category,
        Instant updatedAt) {

    public record CategoryRef(long id, String code, String name) {
    }

    /** The item's category must be loaded (fetched with it, or read before). */
    public static ItemView of(Item item) {
        Category category = item.category;
        return new ItemView(item.id, item.sku, item.name, item.price, item.stock, item.description,
                category.id, new CategoryRef(category.id, category.code, category.name), item.updatedAt);
    }
}
