package bench.catalog.http;

import bench.catalog.data.Category;
import bench.catalog.http.validation.JsonText;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The write body of a category. Its properties stay JSON values until validated, so that a
 * number where a string belongs is a 422 for that field with the others, not a binding error.
 */
public record CategoryBody(@JsonText(max = 32) JsonNode code, @JsonText(max = 128) JsonNode name) implements WriteBody {

    /** Writes the validated body onto {@code category}. */
    public Category applyTo(Category category) {
        category.code = code.textValue();
        category.name = name.textValue();
        return category;
    }
}
