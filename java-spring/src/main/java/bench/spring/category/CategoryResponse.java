package bench.spring.category;

import java.time.Instant;

public record CategoryResponse(long id, String code, String name, Instant updatedAt) {

	static CategoryResponse from(Category category) {
		return new CategoryResponse(category.getId(), category.getCode(), category.getName(), category.getUpdatedAt());
	}

}
