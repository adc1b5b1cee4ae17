package bench.catalog.http;

import bench.catalog.data.ItemData;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;

/** The body of {@code POST /items} and {@code PUT /items/{id}}; {@code description} is optional. */
public record ItemRequest(
        @Text(max = 64) String sku,
        @Text(max = 128) String name,
        @NotNull(message = PRICE) @DecimalMin(value = "0", message = PRICE)
        @DecimalMax(value = "99999999.99", message = PRICE) @Digits(integer = 8, fraction = 2, message = PRICE)
        BigDecimal price,
        @NotNull(message = STOCK) @Min(value = 0, message = STOCK) @Max(value = Integer.MAX_VALUE, message = STOCK)
        Long stock,
        @Text(max = 16384, required = false) String description,
        // Any 64-bit id is well formed: 0, negative or unknown ids are the database's to refuse.
        @NotNull(message = CATEGORY_ID) Long categoryId) {

    static final String PRICE = "must be a number from 0 to 99999999.99 with at most 2 decimals";
    static final String STOCK = "must be an integer from 0 to " + Integer.MAX_VALUE;
    static final String CATEGORY_ID = "must be the integer id of a category";

    static ItemRequest read(JsonFields fields) {
        return new ItemRequest(
                fields.string("sku", JsonFields.STRING),
                fields.string("name", JsonFields.STRING),
                fields.decimal("price", PRICE),
                fields.integer("stock", STOCK),
                fields.string("description", "must be a string or null"),
                fields.integer("categoryId", CATEGORY_ID));
    }

    /** Only once validated: the price then has at most two decimals, the stock fits an int. */
    ItemData data() {
        return new ItemData(sku, name, price.setScale(2), Math.toIntExact(stock), description, categoryId);
    }
}
