package bench.catalog.data;

import java.math.BigDecimal;
import java.time.Instant;

/** A row of the item table with the code and name of its category, read in the same statement. */
public record Item(
        long id,
        String sku,
        String name,
        BigDecimal price,
        int stock,
        String description,
        long categoryId,
        String categoryCode,
        String categoryName,
        Instant updatedAt) {}
