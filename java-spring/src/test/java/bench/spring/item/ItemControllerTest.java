package bench.spring.item;

import java.math.BigDecimal;
import java.net.URI;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import bench.spring.error.AlreadyExistsException;
import bench.spring.error.NotFoundException;
import bench.spring.error.UnknownCategoryException;
import bench.spring.web.PageQuery;
import bench.spring.web.PageResponse;
import bench.spring.web.RequestBodies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.ArgumentCaptor;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.MediaType;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.ResultMatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.verify;
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

	/** Prices are judged by the exact decimal value of the number as written, never a binary double. */
	@ParameterizedTest
	@ValueSource(strings = { "1e2:100", "125E-2:1.25", "1.10000000000000000000:1.1", "1.230:1.23", "0:0",
			"99999999.99:99999999.99", "0.1:0.1", "-0:0" })
	void aPriceIsValidByItsExactValue(String written) throws Exception {
		String[] price = written.split(":");
		given(this.items.create(any())).willReturn(CREATED);
		postJson("/items", VALID.replace("1.230", price[0])).andExpect(status().isCreated());
		ArgumentCaptor<ItemRequest> request = ArgumentCaptor.forClass(ItemRequest.class);
		verify(this.items).create(request.capture());
		assertThat(request.getValue().price()).isEqualByComparingTo(price[1]);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1.00000000000000001", "99999999.995", "1.234", "-0.01", "100000000", "1e400", "1e-400",
			"1E+2147483647", "\"9.99\"", "true", "null" })
	void aPriceIsInvalidByItsExactValue(String price) throws Exception {
		postJson("/items", VALID.replace("1.230", price)).andExpect(problem(422))
			.andExpect(jsonPath("$.errors[*].field").value(containsInAnyOrder("price")));
		verifyNoInteractions(this.items);
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
	void aWriteWithAnotherContentTypeIs415() throws Exception {
		this.mvc.perform(post("/items").contentType("application/json; charset=utf-8").content("{}"))
			.andExpect(problem(422));
		for (String contentType : new String[] { "application/xml", "application/x-www-form-urlencoded", "*/*",
				"application/*", "multipart/form-data" }) {
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

	/**
	 * An integer in a path or query is {@code [+-]?[0-9]+} in the signed 64-bit range; each value
	 * here is what reaches the application once the query string or path is decoded (a {@code +}
	 * in a query string arrives as a space).
	 */
	@ParameterizedTest
	@ValueSource(strings = { "", " 5", "5 ", "\t5", "5\n", "١٢", "５", "1_0", "1.0", "1e3", "0x10", "#10", "+", "-",
			"++5", "+-5", "--5", "5-", "9223372036854775808", "+9223372036854775808", "-9223372036854775809" })
	void aQueryIntegerIsAsciiDigitsWithAnOptionalSign(String value) throws Exception {
		for (String name : new String[] { "page", "size", "categoryId" }) {
			this.mvc.perform(get("/items").param(name, value)).andExpect(problem(400));
		}
		this.mvc.perform(get("/categories/1/items").param("page", value)).andExpect(problem(400));
		verifyNoInteractions(this.items);
	}

	@Test
	void aQueryIntegerMayHaveASignAndLeadingZeros() throws Exception {
		PageResponse<ItemResponse> empty = new PageResponse<>(List.of(), new PageResponse.Metadata(3, 5, 0, 0));
		given(this.items.list(new PageQuery(5, 3), 42L)).willReturn(empty);
		this.mvc.perform(get("/items").param("page", "+5").param("size", "003").param("categoryId", "+0042"))
			.andExpect(status().isOk());
		given(this.items.list(new PageQuery(0, 20), null)).willReturn(empty);
		this.mvc.perform(get("/items").param("page", "-0")).andExpect(status().isOk());
	}

	@ParameterizedTest
	@ValueSource(strings = { "%D9%A1%D9%A2", "%EF%BC%95", "%205", "5%20", "1_0", "1.0", "1e3", "0x10", "%2B", "-", "--5",
			"5-", "%2B-5", "9223372036854775808" })
	void aPathIdIsAsciiDigitsWithAnOptionalSign(String id) throws Exception {
		this.mvc.perform(get(URI.create("/items/" + id))).andExpect(problem(400));
		this.mvc.perform(get(URI.create("/categories/" + id + "/items"))).andExpect(problem(400));
		verifyNoInteractions(this.items);
	}

	@ParameterizedTest
	@ValueSource(strings = { "+5", "%2B5", "005", "+005" })
	void aPathIdMayHaveASignAndLeadingZeros(String id) throws Exception {
		given(this.items.get(5)).willReturn(CREATED);
		this.mvc.perform(get(URI.create("/items/" + id))).andExpect(status().isOk());
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
		given(this.items.create(any())).willThrow(new AlreadyExistsException("sku SKU-X already exists"));
		postJson("/items", VALID).andExpect(problem(409))
			.andExpect(jsonPath("$.title").value("Conflict"))
			.andExpect(jsonPath("$.detail").value("sku SKU-X already exists"));
	}

	@Test
	void anUnknownCategoryIsA422ForTheCategoryIdField() throws Exception {
		given(this.items.replace(anyLong(), any())).willThrow(new UnknownCategoryException(7));
		this.mvc.perform(put("/items/1").contentType(MediaType.APPLICATION_JSON).content(VALID))
			.andExpect(problem(422))
			.andExpect(jsonPath("$.title").value("Unprocessable Content"))
			.andExpect(jsonPath("$.errors[0].field").value("categoryId"))
			.andExpect(jsonPath("$.errors[0].message").value("category 7 does not exist"));
	}

	@Test
	void anIntegrityErrorThatIsNoDomainErrorIsALogged500() throws Exception {
		given(this.items.create(any())).willThrow(new DataIntegrityViolationException("could not execute statement",
				new SQLException("null value in column \"name\" violates not-null constraint", "23502")));
		postJson("/items", VALID).andExpect(problem(500))
			.andExpect(jsonPath("$.detail").value(not(containsString("null value"))));
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

	/** RFC 9110's reason phrases, the title of every problem. */
	private static final Map<Integer, String> TITLES = Map.of(400, "Bad Request", 404, "Not Found", 405,
			"Method Not Allowed", 409, "Conflict", 413, "Content Too Large", 415, "Unsupported Media Type", 422,
			"Unprocessable Content", 500, "Internal Server Error", 503, "Service Unavailable");

	private static ResultMatcher problem(int status) {
		List<ResultMatcher> matchers = List.of(status().is(status),
				content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON),
				jsonPath("$.type").value("about:blank"), jsonPath("$.status").value(status),
				jsonPath("$.title").value(TITLES.get(status)), jsonPath("$.detail").isNotEmpty());
		return result -> {
			for (ResultMatcher matcher : matchers) {
				matcher.match(result);
			}
		};
	}

}
