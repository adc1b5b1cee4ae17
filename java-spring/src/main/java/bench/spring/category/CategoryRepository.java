package bench.spring.category;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface CategoryRepository extends JpaRepository<Category, Long> {

	/** One DELETE that reports how many rows went; {@code deleteById} would load the row first. */
	@Modifying
	@Query("delete from Category c where c.id = :id")
	int deleteWhereId(long id);

}
