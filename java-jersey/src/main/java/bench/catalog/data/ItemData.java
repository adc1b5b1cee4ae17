package bench.catalog.data;

import java.math.BigDecimal;

/** The writable fields of an item, already validated; {@code description} may be null. */
public record ItemData(String sku, String name, BigDecimal price, int stock, String description, long categoryId) {
}
