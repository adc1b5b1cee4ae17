package bench.catalog.data;

import java.math.BigDecimal;

/** What a create or a replace of an item writes; already valid, {@code description} may be null. */
public record ItemWrite(String sku, String name, BigDecimal price, int stock, String description, long categoryId) {}
