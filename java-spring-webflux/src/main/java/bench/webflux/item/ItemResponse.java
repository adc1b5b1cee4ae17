package bench.webflux.item;

import java.math.BigDecimal;
import java.time.Instant;

import bench.webflux.category.Category;

public record ItemResponse(long id, String sku, String name, BigDecimal price, int stock, String description,
		long categoryId, CategorySummary category, Instant updatedAt) {

	static ItemResponse from(ItemWithCategory row) {
		return from(row.item(), new CategorySummary(row.item().categoryId(), row.categoryCode(), row.categoryName()));
	}

	static ItemResponse from(Item item, Category category) {
		return from(item, new CategorySummary(category.id(), category.code(), category.name()));
	}

	private static ItemResponse from(Item item, CategorySummary category) {
		return new ItemResponse(item.id(), item.sku(), item.name(), item.price(), item.stock(), item.description(),
				item.categoryId(), category, item.updatedAt());
	}

	/** The category as an item embeds it: without its own updatedAt. */
	public record CategorySummary(long id, String code, String name) {
	}

}
