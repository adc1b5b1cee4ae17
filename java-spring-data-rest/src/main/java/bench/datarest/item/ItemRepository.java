package bench.datarest.item;

import java.util.Optional;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.data.rest.core.annotation.RepositoryRestResource;
import org.springframework.data.rest.core.annotation.RestResource;

/**
 * {@code /items}, {@code /items/{id}} and {@code /items/search/byCategory}. Every method Spring
 * Data REST reads items through fetches their category in the same query (a join), never one
 * query per item; collections render each item through the {@link InlineCategory} excerpt.
 */
@RepositoryRestResource(path = "items", collectionResourceRel = "items", itemResourceRel = "item",
		excerptProjection = InlineCategory.class)
public interface ItemRepository extends JpaRepository<Item, Long> {

	@Override
	@EntityGraph(attributePaths = "category")
	Optional<Item> findById(Long id);

	/**
	 * The derived count would be {@code count(i1_0.id)}, which makes PostgreSQL read every row's
	 * id; {@code count(*)} does not (java-spring's README has the measurement). This count runs on
	 * every page of all items.
	 */
	@Override
	@EntityGraph(attributePaths = "category")
	@Query(value = "select i from Item i", countQuery = "select count(*) from Item i")
	Page<Item> findAll(Pageable pageable);

	/** {@code /items/search/byCategory?categoryId=345}: the items of one category, paged. */
	@RestResource(path = "byCategory", rel = "byCategory")
	@EntityGraph(attributePaths = "category")
	Page<Item> findByCategoryId(@Param("categoryId") Long categoryId, Pageable pageable);

}
