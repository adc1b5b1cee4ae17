package bench.webflux.category;

import java.time.Instant;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A row of {@code category}; Spring Data R2DBC maps camelCase properties to snake_case columns. */
@Table("category")
public record Category(@Id Long id, String code, String name, Instant updatedAt) {
}
