package bench.catalog.http;

import bench.catalog.data.Category;
import java.time.Instant;

/** A category as the API shows it. */
public record CategoryView(long id, String code, String name, Instant updatedAt) {

    static CategoryView of(Category category) {
        return new CategoryView(category.getId(), category.getCode(), category.getName(), category.getUpdatedAt());
    }
}
