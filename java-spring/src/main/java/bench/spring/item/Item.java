package bench.spring.item;

import java.math.BigDecimal;
import java.time.Instant;

import bench.spring.category.Category;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

@Entity
@Table(name = "item")
public class Item {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String sku;

	private String name;

	private BigDecimal price;

	private int stock;

	private String description;

	// Lazy, so that a write can point at a category by id alone; reads fetch it with an entity graph.
	@ManyToOne(fetch = FetchType.LAZY, optional = false)
	@JoinColumn(name = "category_id")
	private Category category;

	private Instant updatedAt;

	protected Item() {
	}

	Item(ItemRequest request, Category category, Instant updatedAt) {
		replace(request, category, updatedAt);
	}

	/** Full replacement, as PUT means it: an absent description becomes null. */
	void replace(ItemRequest request, Category category, Instant updatedAt) {
		this.sku = request.sku();
		this.name = request.name();
		// numeric(10,2): exact, validation allowed at most two decimals
		this.price = request.price().setScale(2);
		this.stock = request.stock().intValue();
		this.description = request.description();
		this.category = category;
		this.updatedAt = updatedAt;
	}

	public Long getId() {
		return this.id;
	}

	public String getSku() {
		return this.sku;
	}

	public String getName() {
		return this.name;
	}

	public BigDecimal getPrice() {
		return this.price;
	}

	public int getStock() {
		return this.stock;
	}

	public String getDescription() {
		return this.description;
	}

	public Category getCategory() {
		return this.category;
	}

	public Instant getUpdatedAt() {
		return this.updatedAt;
	}

}
