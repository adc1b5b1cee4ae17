package bench.catalog.http;

import bench.catalog.data.Category;
import java.time.Instant;

/** A category as the API answers it. */
public record CategoryView(long id, String code, String name, Instant updatedAt) {

    public static CategoryView of(Category category) {
        return new CategoryView(category.id, category.code, category.name, category.updatedAt);
    }
}
