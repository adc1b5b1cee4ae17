package bench.catalog.http;

import bench.catalog.data.Item;
import bench.catalog.http.validation.JsonInteger;
import bench.catalog.http.validation.JsonPrice;
import bench.catalog.http.validation.JsonPriceValidator;
import bench.catalog.http.validation.JsonText;
import com.fasterxml.jackson.databind.JsonNode;

/** The write body of an item; as {@link CategoryBody}, JSON values until validated. */
public record ItemBody(
        @JsonText(max = 64) JsonNode sku,
        @JsonText(max = 128) JsonNode name,
        @JsonPrice JsonNode price,
        @JsonInteger(min = 0, max = Integer.MAX_VALUE) JsonNode stock,
        @JsonText(max = 16_384, required = false) JsonNode description,
        @JsonInteger(min = Long.MIN_VALUE, max = Long.MAX_VALUE) JsonNode categoryId) implements WriteBody {

    public long category() {
        return categoryId.longValue();
    }

    /** Writes the validated body onto {@code item}, all but the category (a reference the data layer sets). */
    public Item applyTo(Item item) {
        item.sku = sku.textValue();
        item.name = name.textValue();
        item.price = JsonPriceValidator.priceOf(price);
        item.stock = stock.intValue();
        item.description = description == null || description.isNull() ? null : description.textValue();
        return item;
    }
}
