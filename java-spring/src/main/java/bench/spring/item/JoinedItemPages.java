package bench.spring.item;

import org.springframework.context.annotation.Profile;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Component;

/** Each item's category comes in the list's own query: one query for the page, one to count. */
@Component
@Profile("!" + LazyItemPages.PROFILE)
class JoinedItemPages implements ItemPages {

	private final ItemRepository items;

	JoinedItemPages(ItemRepository items) {
		this.items = items;
	}

	@Override
	public Page<Item> all(Pageable pageable) {
		return this.items.findAll(pageable);
	}

	@Override
	public Page<Item> ofCategory(long categoryId, Pageable pageable) {
		return this.items.findByCategoryId(categoryId, pageable);
	}

}
