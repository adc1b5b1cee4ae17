package bench.webflux.item;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Instant;
import java.util.List;

import bench.webflux.error.AlreadyExistsException;
import bench.webflux.error.NotFoundException;
import bench.webflux.error.UnknownCategoryException;
import bench.webflux.web.PageQuery;
import bench.webflux.web.PageResponse;
import bench.webflux.web.RequestBodies;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import io.r2dbc.spi.R2dbcTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mockito.ArgumentCaptor;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.reactive.server.WebTestClient;

import static bench.webflux.Problems.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

/** The HTTP layer of items on its own: parsing, validation and error mapping, the service mocked. */
@WebFluxTest(ItemController.class)
@Import(RequestBodies.class)
class ItemControllerTest {

	private static final String VALID = """
			{"sku": "SKU-X", "name": "Thing", "price": 1.230, "stock": 3, "categoryId": 7}""";

	private static final ItemResponse CREATED = new ItemResponse(100001, "SKU-X", "Thing", new BigDecimal("1.23"), 3,
			null, 7, new ItemResponse.CategorySummary(7, "CAT-0007", "Category 7"), Instant.parse("2026-01-01T00:00:00Z"));

	private static final PageResponse<ItemResponse> EMPTY = new PageResponse<>(List.of(),
			new PageResponse.Metadata(20, 0, 0, 0));

	/** The {@code field} of every entry of a 422's {@code errors}, read as the list it is. */
	private static final ParameterizedTypeReference<List<String>> FIELD_NAMES = new ParameterizedTypeReference<>() {
	};

	@Autowired
	private WebTestClient client;

	@MockitoBean
	private ItemService items;

	@Test
	void createsAnItemWithItsLocation() {
		given(this.items.create(new ItemRequest("SKU-X", "Thing", new BigDecimal("1.23"), 3L, null, 7L)))
			.willReturn(Mono.just(CREATED));
		postJson("/items", VALID).expectStatus()
			.isCreated()
			.expectHeader().location("/items/100001")
			.expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
			.expectBody()
			.jsonPath("$.price").isEqualTo(1.23)
			.jsonPath("$.description").doesNotExist()
			.jsonPath("$.category.code").isEqualTo("CAT-0007")
			.jsonPath("$.updatedAt").isEqualTo("2026-01-01T00:00:00Z");
	}

	@Test
	void reportsEveryInvalidFieldAtOnceWithoutCallingTheService() {
		problem(postJson("/items", """
				{"sku": " \\t", "name": 5, "price": 1.234, "stock": 1.5, "description": "a\\u0000b", "categoryId": "7"}"""),
				422)
			.jsonPath("$.errors[*].field")
			.value(FIELD_NAMES, fields -> assertThat(fields).containsExactlyInAnyOrder("sku", "name", "price", "stock", "description", "categoryId"));
		verifyNoInteractions(this.items);
	}

	@Test
	void judgesRangesAndMissingFields() {
		problem(postJson("/items", """
				{"name": "n", "price": 100000000, "stock": 2147483648, "categoryId": 1.5}"""), 422)
			.jsonPath("$.errors[*].field").value(FIELD_NAMES, fields -> assertThat(fields).containsExactlyInAnyOrder("sku", "price", "stock", "categoryId"));
	}

	/** Prices are judged by the exact decimal value of the number as written, never a binary double. */
	@ParameterizedTest
	@ValueSource(strings = { "1e2:100", "125E-2:1.25", "1.10000000000000000000:1.1", "1.230:1.23", "0:0",
			"99999999.99:99999999.99", "0.1:0.1", "-0:0" })
	void aPriceIsValidByItsExactValue(String written) {
		String[] price = written.split(":");
		given(this.items.create(any())).willReturn(Mono.just(CREATED));
		postJson("/items", VALID.replace("1.230", price[0])).expectStatus().isCreated();
		ArgumentCaptor<ItemRequest> request = ArgumentCaptor.forClass(ItemRequest.class);
		verify(this.items).create(request.capture());
		assertThat(request.getValue().price()).isEqualByComparingTo(price[1]);
	}

	@ParameterizedTest
	@ValueSource(strings = { "1.00000000000000001", "99999999.995", "1.234", "-0.01", "100000000", "1e400", "1e-400",
			"1E+2147483647", "\"9.99\"", "true", "null" })
	void aPriceIsInvalidByItsExactValue(String price) {
		problem(postJson("/items", VALID.replace("1.230", price)), 422)
			.jsonPath("$.errors[*].field").value(FIELD_NAMES, fields -> assertThat(fields).containsExactlyInAnyOrder("price"));
		verifyNoInteractions(this.items);
	}

	@ParameterizedTest
	@ValueSource(strings = { "null", "[]", "\"x\"", "42" })
	void aBodyThatIsNotAnObjectIsInvalidAsAWhole(String body) {
		problem(postJson("/items", body), 422).jsonPath("$.errors[0].field").isEqualTo("");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "{", "{\"sku\": \"x\"} trailing", "{'sku': 1}", "[1, 2" })
	void unparseableJsonIs400(String body) {
		problem(postJson("/items", body), 400);
		verifyNoInteractions(this.items);
	}

	@Test
	void aBodyWithoutJsonContentTypeIs415() {
		problem(this.client.post().uri("/items").contentType(MediaType.TEXT_PLAIN).bodyValue(VALID).exchange(), 415)
			.consumeWith(result -> assertThat(result.getResponseHeaders().getAccept())
				.containsExactly(MediaType.APPLICATION_JSON));
		problem(this.client.post().uri("/items").bodyValue(VALID.getBytes()).exchange(), 415);
		problem(this.client.post().uri("/items").exchange(), 415);
		problem(this.client.put().uri("/items/1").contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.bodyValue("sku=x").exchange(), 415);
		verifyNoInteractions(this.items);
	}

	@Test
	void aJsonContentTypeMayHaveParameters() {
		problem(this.client.post().uri("/items").header("Content-Type", "application/json; charset=utf-8")
			.bodyValue("{}").exchange(), 422);
	}

	@Test
	void aBodyOverOneMebibyteIs413ButTheContentTypeComesFirst() {
		String tooLarge = "{\"name\": \"" + "n".repeat(1024 * 1024) + "\"}";
		problem(postJson("/items", tooLarge), 413);
		problem(this.client.post().uri("/items").contentType(MediaType.TEXT_PLAIN).bodyValue(tooLarge).exchange(), 415);
		verifyNoInteractions(this.items);
	}

	@Test
	void aBodyOfExactlyOneMebibyteIsRead() {
		String head = "{\"sku\": \"";
		String exact = head + "s".repeat(1024 * 1024 - head.length() - 2) + "\"}";
		problem(postJson("/items", exact), 422);
	}

	@Test
	void aMalformedPathIdIs400BeforeTheBodyIsLookedAt() {
		problem(this.client.put().uri("/items/abc").contentType(MediaType.TEXT_PLAIN).bodyValue("not json").exchange(),
				400);
		for (String id : new String[] { "1.5", "0x10", "99999999999999999999", "%201" }) {
			problem(this.client.get().uri(URI.create("/items/" + id)).exchange(), 400);
		}
		verifyNoInteractions(this.items);
	}

	@Test
	void pagingParametersAreStrict() {
		for (String query : new String[] { "page=", "page=-1", "page=1.5", "size=0", "size=101", "size=",
				"categoryId=", "categoryId=abc", "page=9223372036854775808" }) {
			problem(this.client.get().uri(URI.create("/items?" + query)).exchange(), 400);
		}
		problem(this.client.get().uri("/items?size=0").exchange(), 400).jsonPath("$.detail")
			.isEqualTo("size must be an integer between 1 and 100");
		problem(this.client.get().uri("/items?page=x").exchange(), 400).jsonPath("$.detail")
			.isEqualTo("page must be an integer >= 0");
		verifyNoInteractions(this.items);
	}

	/**
	 * An integer in a path or query is {@code [+-]?[0-9]+} in the signed 64-bit range; each value
	 * here is what reaches the application once the query string is decoded (a {@code +} in a
	 * query string arrives as a space).
	 */
	@ParameterizedTest
	@ValueSource(strings = { "", "%205", "5%20", "%095", "5%0A", "%D9%A1%D9%A2", "%EF%BC%95", "1_0", "1.0", "1e3",
			"0x10", "%2310", "%2B", "-", "%2B%2B5", "%2B-5", "--5", "5-", "9223372036854775808",
			"%2B9223372036854775808", "-9223372036854775809", "+5" })
	void aQueryIntegerIsAsciiDigitsWithAnOptionalSign(String value) {
		for (String name : new String[] { "page", "size", "categoryId" }) {
			problem(this.client.get().uri(URI.create("/items?" + name + "=" + value)).exchange(), 400);
		}
		problem(this.client.get().uri(URI.create("/categories/1/items?page=" + value)).exchange(), 400);
		verifyNoInteractions(this.items);
	}

	@Test
	void aQueryIntegerMayHaveASignAndLeadingZeros() {
		given(this.items.list(new PageQuery(5, 3), 42L)).willReturn(Mono.just(EMPTY));
		this.client.get().uri(URI.create("/items?page=%2B5&size=003&categoryId=%2B0042")).exchange()
			.expectStatus().isOk();
		given(this.items.list(new PageQuery(0, 20), null)).willReturn(Mono.just(EMPTY));
		this.client.get().uri("/items?page=-0").exchange().expectStatus().isOk();
	}

	@ParameterizedTest
	@ValueSource(strings = { "%D9%A1%D9%A2", "%EF%BC%95", "%205", "5%20", "1_0", "1.0", "1e3", "0x10", "%2B", "-", "--5",
			"5-", "%2B-5", "9223372036854775808" })
	void aPathIdIsAsciiDigitsWithAnOptionalSign(String id) {
		problem(this.client.get().uri(URI.create("/items/" + id)).exchange(), 400);
		problem(this.client.get().uri(URI.create("/categories/" + id + "/items")).exchange(), 400);
		verifyNoInteractions(this.items);
	}

	@ParameterizedTest
	@ValueSource(strings = { "+5", "%2B5", "005", "+005" })
	void aPathIdMayHaveASignAndLeadingZeros(String id) {
		given(this.items.get(5)).willReturn(Mono.just(CREATED));
		this.client.get().uri(URI.create("/items/" + id)).exchange().expectStatus().isOk();
	}

	@Test
	void pagingDefaultsToTheFirstTwenty() {
		given(this.items.list(new PageQuery(0, 20), null)).willReturn(Mono.just(EMPTY));
		this.client.get().uri("/items").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content").isEmpty()
			.jsonPath("$.page.size").isEqualTo(20)
			.jsonPath("$.page.totalPages").isEqualTo(0);
	}

	@Test
	void wrongMethodIs405WithAllowEvenOnAMalformedId() {
		problem(this.client.patch().uri("/items/abc").exchange(), 405)
			.consumeWith(result -> assertThat(result.getResponseHeaders().getAllow())
				.containsExactlyInAnyOrder(HttpMethod.GET, HttpMethod.PUT, HttpMethod.DELETE));
		problem(this.client.method(HttpMethod.valueOf("QUERY")).uri("/items").exchange(), 405)
			.consumeWith(result -> assertThat(result.getResponseHeaders().getAllow())
				.containsExactlyInAnyOrder(HttpMethod.GET, HttpMethod.POST));
	}

	@Test
	void unknownRoutesAreProblems() {
		problem(this.client.get().uri("/items/").exchange(), 404);
		problem(this.client.get().uri("/nope").exchange(), 404).jsonPath("$.detail").isEqualTo("no route for GET /nope");
	}

	@Test
	void domainErrorsKeepTheirDetail() {
		given(this.items.get(7)).willReturn(Mono.error(new NotFoundException("item 7 not found")));
		problem(this.client.get().uri("/items/7").exchange(), 404).jsonPath("$.detail").isEqualTo("item 7 not found");
		given(this.items.create(any())).willReturn(Mono.error(new AlreadyExistsException("sku SKU-X already exists")));
		problem(postJson("/items", VALID), 409).jsonPath("$.detail").isEqualTo("sku SKU-X already exists");
	}

	@Test
	void anUnknownCategoryIsA422ForTheCategoryIdField() {
		given(this.items.replace(anyLong(), any())).willReturn(Mono.error(new UnknownCategoryException(7)));
		problem(this.client.put().uri("/items/1").contentType(MediaType.APPLICATION_JSON).bodyValue(VALID).exchange(),
				422)
			.jsonPath("$.errors[0].field").isEqualTo("categoryId")
			.jsonPath("$.errors[0].message").isEqualTo("category 7 does not exist");
	}

	@Test
	void anIntegrityErrorThatIsNoDomainErrorIsALogged500() {
		given(this.items.create(any())).willReturn(Mono.error(new DataIntegrityViolationException("executeMany",
				new R2dbcDataIntegrityViolationException("null value in column \"name\" violates not-null constraint",
						"23502"))));
		problem(postJson("/items", VALID), 500).jsonPath("$.detail").value(String.class, detail -> assertThat(detail).doesNotContain("null value"));
	}

	@Test
	void anUnreachableDatabaseIs503() {
		given(this.items.get(anyLong())).willReturn(Mono.error(new DataAccessResourceFailureException(
				"Failed to obtain R2DBC Connection",
				new R2dbcTimeoutException("Connection acquisition timed out after 5000ms"))));
		problem(this.client.get().uri("/items/1").exchange(), 503);
	}

	@Test
	void anUnexpectedErrorIsAGeneric500() {
		given(this.items.delete(1)).willReturn(Mono.error(new IllegalStateException("SELECT secret FROM somewhere")));
		problem(this.client.delete().uri("/items/1").exchange(), 500).jsonPath("$.detail")
			.value(String.class, detail -> assertThat(detail).doesNotContain("SELECT"));
	}

	/**
	 * A client that closed or reset its connection while its body was read reaches the error map
	 * as Reactor Netty's AbortedException or as the socket's IOException: the client's doing, a
	 * 400 on one INFO line without a stack trace, and no database outage.
	 */
	@Test
	void aClientThatLeftWhileItsBodyWasReadIsA400OnOneInfoLine() {
		Logger log = (Logger) LoggerFactory.getLogger("bench.webflux.error.ApiExceptionHandler");
		Level level = log.getLevel();
		ListAppender<ILoggingEvent> events = new ListAppender<>();
		events.start();
		log.setLevel(Level.INFO);
		log.addAppender(events);
		try {
			for (Exception left : List.of(new AbortedException("Connection has been closed"),
					new IOException("recvAddress(..) failed with error(-104): Connection reset by peer"))) {
				events.list.clear();
				given(this.items.create(any())).willReturn(Mono.error(left));
				problem(postJson("/items", VALID), 400).jsonPath("$.detail")
					.isEqualTo("the request body could not be read");
				assertThat(events.list).hasSize(1);
				assertThat(events.list.getFirst().getLevel()).isEqualTo(Level.INFO);
				assertThat(events.list.getFirst().getThrowableProxy()).isNull();
			}
		}
		finally {
			log.detachAppender(events);
			log.setLevel(level);
		}
	}

	@Test
	void deleteIs204WithoutABody() {
		given(this.items.delete(1)).willReturn(Mono.empty());
		this.client.delete().uri("/items/1").exchange().expectStatus().isNoContent().expectBody().isEmpty();
	}

	private WebTestClient.ResponseSpec postJson(String path, String body) {
		return this.client.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
	}

}
