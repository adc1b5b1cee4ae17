package bench.datarest.item;

import java.math.BigDecimal;
import java.time.Instant;

import bench.datarest.category.Category;
import bench.datarest.validation.Text;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonProperty.Access;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * A row of {@code item}, exported as {@code /items/{id}}. Its category is an association: a write
 * names it by URI ({@code "category": "/categories/345"}), a read links it
 * ({@code _links.category}) or inlines it through the {@link InlineCategory} projection.
 */
@Entity
@Table(name = "item")
public class Item {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	@JsonProperty(access = Access.READ_ONLY)
	private Long id;

	@Text(max = 64)
	private String sku;

	@Text(max = 128)
	private String name;

	// numeric(10,2), judged on the exact value Jackson read from the JSON text (never a double)
	@NotNull
	@DecimalMin("0.00")
	@DecimalMax("99999999.99")
	@Digits(integer = 8, fraction = 2)
	private BigDecimal price;

	// A wrapper, so that a missing stock is a violation rather than 0; Jackson refuses values
	// outside int's range itself.
	@NotNull
	@Min(0)
	private Integer stock;

	@Text(max = 16_384, required = false)
	private String description;

	// Lazy, so that a write resolves its category's URI without joining; every read of items
	// fetches it in the same query (ItemRepository).
	@ManyToOne(fetch = FetchType.LAZY, optional = false)
	@JoinColumn(name = "category_id")
	@NotNull
	private Category category;

	@JsonProperty(access = Access.READ_ONLY)
	private Instant updatedAt;

	public Long getId() {
		return this.id;
	}

	public String getSku() {
		return this.sku;
	}

	public void setSku(String sku) {
		this.sku = sku;
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public BigDecimal getPrice() {
		return this.price;
	}

	/**
	 * The exact value as written, without trailing zeros: {@code @Digits} counts the written
	 * scale, so {@code 1.230} (a price of two decimals) would count three.
	 */
	public void setPrice(BigDecimal price) {
		this.price = (price == null) ? null : price.stripTrailingZeros();
	}

	public Integer getStock() {
		return this.stock;
	}

	public void setStock(Integer stock) {
		this.stock = stock;
	}

	public String getDescription() {
		return this.description;
	}

	public void setDescription(String description) {
		this.description = description;
	}

	public Category getCategory() {
		return this.category;
	}

	public void setCategory(Category category) {
		this.category = category;
	}

	public Instant getUpdatedAt() {
		return this.updatedAt;
	}

	void touch(Instant now) {
		this.updatedAt = now;
	}

}
