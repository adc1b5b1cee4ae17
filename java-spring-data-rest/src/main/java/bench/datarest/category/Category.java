package bench.datarest.category;

import java.time.Instant;

import bench.datarest.validation.Text;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonProperty.Access;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row of {@code category}, exported as {@code /categories/{id}}. The constraints are the API's
 * field rules; Spring Data REST runs them before every create and save (config/RestConfiguration)
 * and answers a 400 listing each invalid property. {@code id} and {@code updatedAt} are the
 * server's: a write body's values for them are ignored.
 */
@Entity
@Table(name = "category")
public class Category {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	@JsonProperty(access = Access.READ_ONLY)
	private Long id;

	@Text(max = 32)
	private String code;

	@Text(max = 128)
	private String name;

	@JsonProperty(access = Access.READ_ONLY)
	private Instant updatedAt;

	public Long getId() {
		return this.id;
	}

	public String getCode() {
		return this.code;
	}

	public void setCode(String code) {
		this.code = code;
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public Instant getUpdatedAt() {
		return this.updatedAt;
	}

	void touch(Instant now) {
		this.updatedAt = now;
	}

}
