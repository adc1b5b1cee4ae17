package bench.spring.item;

import bench.spring.web.PageQuery;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statements a page of items costs, counted by Hibernate against the seed, where 20
 * consecutive items belong to 20 different categories and each category holds 50 items: the
 * stack's lists fetch the category in their own query, and the profile n-plus-one (the variant
 * java-spring@n-plus-one) loads each distinct category by itself, with the same answer.
 */
class ItemPagesTest {

	private static final String STATISTICS = "spring.jpa.properties.hibernate.generate_statistics=true";

	private static final PageQuery FIRST_PAGE = PageQuery.of(0L, 20L);

	/** The service of a context with Hibernate's statistics on, cleared before each test. */
	abstract class Counted {

		@Autowired
		ItemService service;

		@Autowired
		private EntityManagerFactory entityManagerFactory;

		Statistics statistics;

		@BeforeEach
		void clearStatistics() {
			this.statistics = this.entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
			this.statistics.clear();
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = STATISTICS)
	class Joined extends Counted {

		@Test
		void aPageIsItsQueryAndItsCount() {
			assertThat(this.service.list(FIRST_PAGE, null).content()).hasSize(20)
				.allSatisfy(item -> assertThat(item.category().code()).isNotBlank());
			assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(2);
		}

		@Test
		void aPageOfOneCategoryIsItsQueryAndItsCount() {
			assertThat(this.service.list(FIRST_PAGE, 7L).content()).hasSize(20);
			assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(2);
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = STATISTICS)
	@ActiveProfiles(LazyItemPages.PROFILE)
	class Lazy extends Counted {

		@Test
		void aPageLoadsEachOfItsCategoriesByItself() {
			assertThat(this.service.list(FIRST_PAGE, null).content()).hasSize(20)
				.allSatisfy(item -> assertThat(item.category().code()).isNotBlank());
			assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(1 + 20 + 1);
		}

		@Test
		void aPageOfOneCategoryLoadsItOnce() {
			assertThat(this.service.list(FIRST_PAGE, 7L).content()).hasSize(20)
				.allSatisfy(item -> assertThat(item.category().id()).isEqualTo(7));
			assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(1 + 1 + 1);
		}

		@Test
		void aListedItemIsTheItemAsReadAlone() {
			assertThat(this.service.list(PageQuery.of(617L, 20L), null).content().get(0))
				.isEqualTo(this.service.get(12341));
		}

	}

}
