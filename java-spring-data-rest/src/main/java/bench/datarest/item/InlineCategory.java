package bench.datarest.item;

import java.math.BigDecimal;
import java.time.Instant;

import org.springframework.data.rest.core.config.Projection;

/**
 * The item with its category inlined as {@code {id, code, name}}: the excerpt of every collection
 * of items ({@code _embedded.items[]}), and the single item's view on request
 * ({@code /items/{id}?projection=inlineCategory}). The repository methods that serve it fetch the
 * category in the same query.
 */
@Projection(name = "inlineCategory", types = Item.class)
public interface InlineCategory {

	Long getId();

	String getSku();

	String getName();

	BigDecimal getPrice();

	Integer getStock();

	String getDescription();

	CategorySummary getCategory();

	Instant getUpdatedAt();

	interface CategorySummary {

		Long getId();

		String getCode();

		String getName();

	}

}
