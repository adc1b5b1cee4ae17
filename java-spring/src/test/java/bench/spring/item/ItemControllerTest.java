package bench.spring.item;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import bench.spring.error.ConflictException;
import bench.spring.error.NotFoundException;
import bench.spring.web.PageQuery;
import bench.spring.web.PageResponse;
import bench.spring.web.RequestBodies;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.ResultMatcher;

import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The HTTP layer of items on its own: parsing, validation and error mapping, the service mocked. */
@WebMvcTest(ItemController.class)
@Import(RequestBodies.class)
class ItemControllerTest {

	private static final String VALID = """
			{"sku": "SKU-X", "name": "Thing", "price": 1.230, "stock": 3, "categoryId": 7}""";

	private static final ItemResponse CREATED = new ItemResponse(100001, "SKU-X", "Thing", new BigDecimal("1.23"), 3,
			null, 7, new ItemResponse.CategorySummary(7, "CAT-0007", "Category 7"), Instant.parse("2026-01-01T00:00:00Z"));

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private ItemService items;

	@Test
	void createsAnItemWithItsLocation() throws Exception {
		given(this.items.create(new ItemRequest("SKU-X", "Thing", new BigDecimal("1.23"), 3L, null, 7L)))
			.willReturn(CREATED);
		postJson("/items", VALID).andExpect(status().isCreated())
			.andExpect(header().string("Location", "/items/100001"))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
			.andExpect(jsonPath("$.price").value(1.23))
			.andExpect(jsonPath("$.description").doesNotExist())
			.andExpect(jsonPath("$.category.code").value("CAT-0007"))
			.andExpect(jsonPath("$.updatedAt").value("2026-01-01T00:00:00Z"));
	}

	@Test
	void reportsEveryInvalidFieldAtOnceWithoutCallingTheService() throws Exception {
		postJson("/items", """
				{"sku": " \\t", "name": 5, "price": 1.234, "stock": 1.5, "description": "a\\u0000b", "categoryId": "7"}""")
			.andExpect(problem(422))
			.andExpect(jsonPath("$.errors[*].field")
				.value(containsInAnyOrder("sku", "name", "price", "stock", "description", "categoryId")));
		verifyNoInteractions(this.items);
	}

	@Test
	void judgesRangesAndMissingFields() throws Exception {
		postJson("/items", """
				{"name": "n", "price": 100000000, "stock": 2147483648, "categoryId": 1.5}""")
			.andExpect(problem(422))
			.andExpect(jsonPath("$.errors[*].field").value(containsInAnyOrder("sku", "price", "stock", "categoryId")));
	}

	@Test
	void aBodyThatIsNotAnObjectIsInvalidAsAWhole() throws Exception {
		for (String body : new String[] { "null", "[]", "\"x\"", "42" }) {
			postJson("/items", body).andExpect(problem(422)).andExpect(jsonPath("$.errors[0].field").value(""));
		}
	}

	@Test
	void unparseableJsonIs400() throws Exception {
		for (String body : new String[] { "", "{", "{\"sku\": \"x\"} trailing", "{'sku': 1}" }) {
			postJson("/items", body).andExpect(problem(400));
		}
	}

	@Test
	void aBodyWithoutJsonContentTypeIs415() throws Exception {
		this.mvc.perform(post("/items").contentType(MediaType.TEXT_PLAIN).content(VALID)).andExpect(problem(415));
		this.mvc.perform(post("/items").content(VALID)).andExpect(problem(415));
		this.mvc.perform(post("/items")).andExpect(problem(415));
	}

	@Test
	void onlyApplicationJsonIsJson() throws Exception {
		this.mvc.perform(post("/items").contentType("application/json; charset=utf-8").content("{}"))
			.andExpect(problem(422));
		for (String contentType : new String[] { "application/json-patch+json", "application/problem+json",
				"application/vnd.api+json", "*/*", "application/*", "multipart/form-data" }) {
			this.mvc.perform(post("/items").contentType(contentType).content(VALID))
				.andExpect(problem(415))
				.andExpect(header().string("Accept", "application/json"));
			this.mvc.perform(put("/items/1").contentType(contentType).content(VALID)).andExpect(problem(415));
		}
		verifyNoInteractions(this.items);
	}

	@Test
	void aBodyOverOneMebibyteIs413ButTheContentTypeComesFirst() throws Exception {
		String tooLarge = "{\"name\": \"" + "n".repeat(1024 * 1024) + "\"}";
		postJson("/items", tooLarge).andExpect(problem(413));
		this.mvc.perform(post("/items").contentType(MediaType.TEXT_PLAIN).content(tooLarge)).andExpect(problem(415));
	}

	@Test
	void aMalformedPathIdIs400BeforeTheBodyIsLookedAt() throws Exception {
		this.mvc.perform(put("/items/abc").contentType(MediaType.TEXT_PLAIN).content("not json"))
			.andExpect(problem(400));
		for (String id : new String[] { "1.5", "0x10", "99999999999999999999", "%201" }) {
			this.mvc.perform(get("/items/" + id)).andExpect(problem(400));
		}
		verifyNoInteractions(this.items);
	}

	@Test
	void pagingParametersAreStrict() throws Exception {
		for (String query : new String[] { "page=", "page=-1", "page=1.5", "size=0", "size=101", "size=",
				"categoryId=", "categoryId=abc", "page=9223372036854775808" }) {
			this.mvc.perform(get("/items?" + query)).andExpect(problem(400));
		}
		verifyNoInteractions(this.items);
	}

	@Test
	void pagingDefaultsToTheFirstTwenty() throws Exception {
		given(this.items.list(new PageQuery(0, 20), null)).willReturn(
				new PageResponse<>(List.of(), new PageResponse.Metadata(20, 0, 0, 0)));
		this.mvc.perform(get("/items"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.content").isEmpty())
			.andExpect(jsonPath("$.page.size").value(20))
			.andExpect(jsonPath("$.page.totalPages").value(0));
	}

	@Test
	void wrongMethodIs405WithAllowEvenOnAMalformedId() throws Exception {
		this.mvc.perform(patch("/items/abc"))
			.andExpect(problem(405))
			.andExpect(header().string("Allow", containsString("PUT")))
			.andExpect(header().string("Allow", containsString("DELETE")));
	}

	@Test
	void unknownRoutesAreProblems() throws Exception {
		this.mvc.perform(get("/items/")).andExpect(problem(404));
		this.mvc.perform(get("/nope")).andExpect(problem(404));
	}

	@Test
	void domainErrorsKeepTheirDetail() throws Exception {
		given(this.items.get(7)).willThrow(new NotFoundException("item 7 not found"));
		this.mvc.perform(get("/items/7")).andExpect(problem(404)).andExpect(jsonPath("$.detail").value("item 7 not found"));
		given(this.items.create(any())).willThrow(new ConflictException("sku SKU-X already exists"));
		postJson("/items", VALID).andExpect(problem(409));
	}

	@Test
	void anUnreachableDatabaseIs503() throws Exception {
		given(this.items.get(anyLong())).willThrow(new CannotGetJdbcConnectionException("no connection"));
		this.mvc.perform(get("/items/1")).andExpect(problem(503));
	}

	@Test
	void anUnexpectedErrorIsAGeneric500() throws Exception {
		willThrow(new IllegalStateException("SELECT secret FROM somewhere")).given(this.items).delete(1);
		this.mvc.perform(delete("/items/1"))
			.andExpect(problem(500))
			.andExpect(jsonPath("$.detail").value(not(containsString("SELECT"))));
	}

	private ResultActions postJson(String path, String body) throws Exception {
		return this.mvc.perform(post(path).contentType(MediaType.APPLICATION_JSON).content(body));
	}

	private static ResultMatcher problem(int status) {
		List<ResultMatcher> matchers = List.of(status().is(status),
				content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON),
				jsonPath("$.type").value("about:blank"), jsonPath("$.status").value(status),
				jsonPath("$.title").isNotEmpty(), jsonPath("$.detail").isNotEmpty());
		return result -> {
			for (ResultMatcher matcher : matchers) {
				matcher.match(result);
			}
		};
	}

}
