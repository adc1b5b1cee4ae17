package bench.datarest.category;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.rest.core.annotation.RepositoryRestResource;

/**
 * {@code /categories} and {@code /categories/{id}}: Spring Data REST's collection and item
 * resources over the CRUD methods, paged by {@code page} and {@code size} and sorted by id unless
 * the request sorts otherwise (config/RestConfiguration).
 */
@RepositoryRestResource(path = "categories", collectionResourceRel = "categories", itemResourceRel = "category")
public interface CategoryRepository extends JpaRepository<Category, Long> {

}
