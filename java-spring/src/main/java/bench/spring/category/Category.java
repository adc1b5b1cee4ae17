package bench.spring.category;

import java.time.Instant;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "category")
public class Category {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

	private String code;

	private String name;

	private Instant updatedAt;

	protected Category() {
	}

	Category(String code, String name, Instant updatedAt) {
		this.code = code;
		this.name = name;
		this.updatedAt = updatedAt;
	}

	/** Full replacement, as PUT means it. */
	void replace(String code, String name, Instant updatedAt) {
		this.code = code;
		this.name = name;
		this.updatedAt = updatedAt;
	}

	public Long getId() {
		return this.id;
	}

	public String getCode() {
		return this.code;
	}

	public String getName() {
		return this.name;
	}

	public Instant getUpdatedAt() {
		return this.updatedAt;
	}

}
