package bench.catalog.item;

import java.math.BigDecimal;
import java.time.Instant;

/** An item with the code and name of its category, fetched by the same JOIN. */
public record Item(long id, String sku, String name, BigDecimal price, int stock, String description,
                   long categoryId, String categoryCode, String categoryName, Instant updatedAt) {
}
