package bench.webflux.item;

import java.math.BigDecimal;

import bench.webflux.web.JsonFields;
import bench.webflux.web.Text;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** The body of POST and PUT /items. */
public record ItemRequest(
		@Text(max = 64) String sku,
		@Text(max = 128) String name,
		@NotNull(message = PRICE) @DecimalMin(value = "0", message = PRICE)
		@DecimalMax(value = "99999999.99", message = PRICE) @Digits(integer = 8, fraction = 2, message = PRICE)
		BigDecimal price,
		@NotNull(message = STOCK) @Min(value = 0, message = STOCK) @Max(value = Integer.MAX_VALUE, message = STOCK)
		Long stock,
		@Text(max = 16384, required = false) String description,
		// 0 and negative ids are well formed; like any unknown id, the database rejects them.
		@NotNull(message = CATEGORY_ID) Long categoryId) {

	static final String PRICE = "must be a number between 0 and 99999999.99 with at most 2 decimals";

	static final String STOCK = "must be an integer between 0 and " + Integer.MAX_VALUE;

	static final String CATEGORY_ID = "must be the id of a category";

	public static ItemRequest read(JsonFields fields) {
		return new ItemRequest(fields.string("sku"), fields.string("name"), fields.decimal("price", PRICE),
				fields.integer("stock", STOCK), fields.string("description"),
				fields.integer("categoryId", CATEGORY_ID));
	}

}
