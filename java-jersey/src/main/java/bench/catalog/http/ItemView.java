package bench.catalog.http;

import bench.catalog.data.Category;
import bench.catalog.data.Item;
import java.math.BigDecimal;
import java.time.Instant;

/** An item as the API shows it, with its category embedded as {@code {id, code, name}}. */
public record ItemView(long id, String sku, String name, BigDecimal price, int stock, String description,
                       long categoryId, CategoryRef category, Instant updatedAt) {

    public record CategoryRef(long id, String code, String name) {
    }

    static ItemView of(Item item) {
        Category category = item.getCategory();
        return new ItemView(item.getId(), item.getSku(), item.getName(), item.getPrice(), item.getStock(),
                item.getDescription(), category.getId(),
                new CategoryRef(category.getId(), category.getCode(), category.getName()),
                item.getUpdatedAt());
    }
}
