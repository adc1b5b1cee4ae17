package bench.datarest.item;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import bench.datarest.category.Category;

import org.springframework.data.rest.core.annotation.HandleBeforeCreate;
import org.springframework.data.rest.core.annotation.HandleBeforeLinkSave;
import org.springframework.data.rest.core.annotation.HandleBeforeSave;
import org.springframework.data.rest.core.annotation.RepositoryEventHandler;
import org.springframework.stereotype.Component;

/**
 * {@code updatedAt} on every POST and PUT of an item, as for categories (CategoryEventHandler), and
 * on every PUT of its category link ({@code /items/{id}/category}), which is a write of the item.
 */
@Component
@RepositoryEventHandler
class ItemEventHandler {

	private final Clock clock;

	ItemEventHandler(Clock clock) {
		this.clock = clock;
	}

	@HandleBeforeCreate
	@HandleBeforeSave
	void touch(Item item) {
		item.touch(Instant.now(this.clock).truncatedTo(ChronoUnit.MICROS));
	}

	@HandleBeforeLinkSave
	void touch(Item item, Category category) {
		touch(item);
	}

}
