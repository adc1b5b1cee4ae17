package bench.datarest.category;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.data.rest.core.annotation.HandleBeforeCreate;
import org.springframework.data.rest.core.annotation.HandleBeforeSave;
import org.springframework.data.rest.core.annotation.RepositoryEventHandler;
import org.springframework.stereotype.Component;

/**
 * {@code updatedAt} is the time of the write, set on every POST and PUT that Spring Data REST
 * handles, whether or not a field changed (a JPA {@code @PreUpdate} would skip a PUT that changes
 * nothing). Microseconds, as PostgreSQL stores them, so the answer carries what was stored.
 */
@Component
@RepositoryEventHandler
class CategoryEventHandler {

	private final Clock clock;

	CategoryEventHandler(Clock clock) {
		this.clock = clock;
	}

	@HandleBeforeCreate
	@HandleBeforeSave
	void touch(Category category) {
		category.touch(Instant.now(this.clock).truncatedTo(ChronoUnit.MICROS));
	}

}
