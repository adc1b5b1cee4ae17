package bench.spring.item;

import org.springframework.context.annotation.Profile;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Component;

/**
 * The original study's T4, "without JOIN FETCH, N+1 is present" (docs/study.md): the list's query
 * leaves each item's category a lazy reference, and the response loads it, one query per distinct
 * category on the page. Only under the profile {@value #PROFILE}, so that the variant measures the
 * cost of that one mapping decision against the stack's {@link JoinedItemPages}.
 */
@Component
@Profile(LazyItemPages.PROFILE)
class LazyItemPages implements ItemPages {

	static final String PROFILE = "n-plus-one";

	private final ItemRepository items;

	LazyItemPages(ItemRepository items) {
		this.items = items;
	}

	@Override
	public Page<Item> all(Pageable pageable) {
		return this.items.findAllWithoutCategory(pageable);
	}

	@Override
	public Page<Item> ofCategory(long categoryId, Pageable pageable) {
		return this.items.findWithoutCategoryByCategoryId(categoryId, pageable);
	}

}
