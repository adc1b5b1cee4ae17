package bench.webflux.category;

import java.time.Instant;

public record CategoryResponse(long id, String code, String name, Instant updatedAt) {

	static CategoryResponse from(Category category) {
		return new CategoryResponse(category.id(), category.code(), category.name(), category.updatedAt());
	}

}
