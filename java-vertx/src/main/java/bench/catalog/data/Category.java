package bench.catalog.data;

import java.time.Instant;

/** A row of the category table. */
public record Category(long id, String code, String name, Instant updatedAt) {}
