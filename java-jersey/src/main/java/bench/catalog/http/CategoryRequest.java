package bench.catalog.http;

import bench.catalog.data.CategoryData;

/** The body of {@code POST /categories} and {@code PUT /categories/{id}}. */
public record CategoryRequest(@Text(max = 32) String code, @Text(max = 128) String name) {

    static CategoryRequest read(JsonFields fields) {
        return new CategoryRequest(fields.string("code", JsonFields.STRING), fields.string("name", JsonFields.STRING));
    }

    CategoryData data() {
        return new CategoryData(code, name);
    }
}
