package bench.datarest;

import jakarta.persistence.EntityManagerFactory;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The seeded data as Spring Data REST renders it (spec/hal.md, "Representations"), and the SQL it takes. */
@HalTest
class ReadsTest {

	@Autowired
	MockMvc mvc;

	@Autowired
	EntityManagerFactory entityManagerFactory;

	Statistics statistics;

	@BeforeEach
	void countStatements() {
		this.statistics = this.entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
		this.statistics.clear();
	}

	@Test
	void anItemWithItsCategoryInlinedIsOneQuery() throws Exception {
		this.mvc.perform(get("/items/12345?projection=inlineCategory"))
			.andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith("application/vnd.hal+json"))
			.andExpect(jsonPath("$.id").value(12345))
			.andExpect(jsonPath("$.sku").value("SKU-012345"))
			.andExpect(jsonPath("$.name").value("Item 12345"))
			.andExpect(jsonPath("$.price").value(600.55))
			.andExpect(jsonPath("$.stock").value(345))
			.andExpect(jsonPath("$.description", startsWith("Description of item 12345. Lorem ipsum")))
			.andExpect(jsonPath("$.updatedAt").value("2026-01-01T03:25:45Z"))
			.andExpect(jsonPath("$.category.id").value(345))
			.andExpect(jsonPath("$.category.code").value("CAT-0345"))
			.andExpect(jsonPath("$.category.name").value("Category 345"))
			.andExpect(jsonPath("$.category.updatedAt").doesNotExist())
			.andExpect(jsonPath("$.category._links.self.href").value("http://localhost/categories/345"))
			.andExpect(jsonPath("$._links.self.href").value("http://localhost/items/12345"))
			.andExpect(jsonPath("$._links.category.href").value("http://localhost/items/12345/category"));
		assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(1);
	}

	@Test
	void aPlainItemLinksItsCategory() throws Exception {
		this.mvc.perform(get("/items/7"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.sku").value("SKU-000007"))
			.andExpect(jsonPath("$.category").doesNotExist())
			.andExpect(jsonPath("$._links.category.href").value("http://localhost/items/7/category"));
		this.mvc.perform(get("/items/7/category"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.id").value(7))
			.andExpect(jsonPath("$.code").value("CAT-0007"));
	}

	@Test
	void aPageOfItemsIsTwoQueriesWhateverItsSize() throws Exception {
		this.mvc.perform(get("/items?page=999&size=100"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$._embedded.items", hasSize(100)))
			.andExpect(jsonPath("$._embedded.items[0].id").value(99901))
			.andExpect(jsonPath("$._embedded.items[99].id").value(100000))
			.andExpect(jsonPath("$._embedded.items[99].category.code").value("CAT-2000"))
			.andExpect(jsonPath("$.page.number").value(999))
			.andExpect(jsonPath("$.page.size").value(100))
			.andExpect(jsonPath("$.page.totalElements").value(100000))
			.andExpect(jsonPath("$.page.totalPages").value(1000));
		// the items joined to their categories, and the count: never one query per item
		assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(2);
	}

	@Test
	void collectionsAreSortedByIdByDefault() throws Exception {
		this.mvc.perform(get("/items?size=3"))
			.andExpect(jsonPath("$._embedded.items[*].id", contains(1, 2, 3)))
			.andExpect(jsonPath("$._links.self.href").value("http://localhost/items?page=0&size=3&sort=id,asc"));
		this.mvc.perform(get("/categories?size=2&page=1"))
			.andExpect(jsonPath("$._embedded.categories[*].id", contains(3, 4)))
			.andExpect(jsonPath("$.page.totalElements").value(2000));
		this.mvc.perform(get("/items?size=3&sort=id,desc"))
			.andExpect(jsonPath("$._embedded.items[*].id", contains(100000, 99999, 99998)));
	}

	@Test
	void theItemsOfACategoryAreASearch() throws Exception {
		this.mvc.perform(get("/items/search/byCategory?categoryId=345&size=50"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$._embedded.items", hasSize(50)))
			.andExpect(jsonPath("$._embedded.items[0].id").value(345))
			.andExpect(jsonPath("$._embedded.items[1].id").value(2345))
			.andExpect(jsonPath("$._embedded.items[*].category.id", everyItem(is(345))))
			.andExpect(jsonPath("$.page.totalElements").value(50));
		assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(2);
		this.mvc.perform(get("/items/search/byCategory?categoryId=999999"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$._embedded.items", hasSize(0)))
			.andExpect(jsonPath("$.page.totalElements").value(0));
	}

	@Test
	void anEmptyPageKeepsItsArrayAndTheTotals() throws Exception {
		this.mvc.perform(get("/items?page=5000"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$._embedded.items", hasSize(0)))
			.andExpect(jsonPath("$.page.totalElements").value(100000));
	}

	@ParameterizedTest
	@CsvSource({ "page=abc, 0, 20", "page=-1, 0, 20", "size=0, 0, 20", "size=1000, 0, 100", "page=+2&size=007, 2, 7" })
	void pagingFallsBackInsteadOfFailing(String query, int number, int size) throws Exception {
		this.mvc.perform(get("/items?" + query))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.page.number").value(number))
			.andExpect(jsonPath("$.page.size").value(size))
			.andExpect(jsonPath("$._embedded.items[0].id").value(number * size + 1));
	}

	@Test
	void aCategory() throws Exception {
		this.mvc.perform(get("/categories/42"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.id").value(42))
			.andExpect(jsonPath("$.code").value("CAT-0042"))
			.andExpect(jsonPath("$.name").value("Category 42"))
			.andExpect(jsonPath("$.updatedAt").value("2026-01-01T00:00:42Z"))
			.andExpect(jsonPath("$._links.self.href", endsWith("/categories/42")));
		assertThat(this.statistics.getPrepareStatementCount()).isEqualTo(1);
	}

	@Test
	void absentResourcesAre404WithoutABody() throws Exception {
		for (String path : new String[] { "/items/100001", "/items/0", "/items/-5", "/categories/2001",
				"/items/100001/category" }) {
			this.mvc.perform(get(path)).andExpect(status().isNotFound()).andExpect(content().string(""));
		}
	}

}
