package bench.catalog.category;

import java.time.Instant;

public record Category(long id, String code, String name, Instant updatedAt) {
}
