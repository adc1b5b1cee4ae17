package bench.webflux.item;

import java.math.BigDecimal;
import java.time.Instant;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A row of {@code item}. R2DBC maps no relations: the category is its id here, and reads that
 * embed the category join it in SQL ({@link ItemQueries}).
 */
@Table("item")
public record Item(@Id Long id, String sku, String name, BigDecimal price, int stock, String description,
		long categoryId, Instant updatedAt) {

	/** A row as a write stores it; numeric(10,2) keeps the price exact (validation allowed at most 2 decimals). */
	static Item of(Long id, ItemRequest request, Instant updatedAt) {
		return new Item(id, request.sku(), request.name(), request.price().setScale(2), request.stock().intValue(),
				request.description(), request.categoryId(), updatedAt);
	}

}
