package bench.spring.item;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/**
 * Where the item lists get their page of entities: {@link JoinedItemPages}, the stack's, or
 * {@link LazyItemPages} under the Spring profile {@value LazyItemPages#PROFILE} (the variant
 * java-spring@n-plus-one of impl.toml). One bean of the two exists, so the service never asks
 * which.
 */
public interface ItemPages {

	Page<Item> all(Pageable pageable);

	Page<Item> ofCategory(long categoryId, Pageable pageable);

}
