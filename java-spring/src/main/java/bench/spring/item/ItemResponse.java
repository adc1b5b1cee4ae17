package bench.spring.item;

import java.math.BigDecimal;
import java.time.Instant;

import bench.spring.category.Category;

public record ItemResponse(long id, String sku, String name, BigDecimal price, int stock, String description,
		long categoryId, CategorySummary category, Instant updatedAt) {

	static ItemResponse from(Item item) {
		Category category = item.getCategory();
		return new ItemResponse(item.getId(), item.getSku(), item.getName(), item.getPrice(), item.getStock(),
				item.getDescription(), category.getId(),
				new CategorySummary(category.getId(), category.getCode(), category.getName()), item.getUpdatedAt());
	}

	/** The category as an item embeds it: without its own updatedAt. */
	public record CategorySummary(long id, String code, String name) {
	}

}
