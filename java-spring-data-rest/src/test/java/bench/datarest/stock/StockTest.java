package bench.datarest.stock;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import bench.datarest.HalTest;
import bench.datarest.stock.FakeStockService.Close;
import bench.datarest.stock.FakeStockService.Hang;
import bench.datarest.stock.FakeStockService.Request;
import bench.datarest.stock.FakeStockService.Respond;
import bench.datarest.stock.FakeStockService.Stall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * GET /items/{id}/stock in the whole application, beside Spring Data REST's resources, against a
 * stock service started in the test ({@link FakeStockService}) with the stack's client settings
 * (application.properties: the JDK's HttpClient, timeouts of 1 s, no redirects): every answer of
 * the stock service, and every error of the path, is spec/API.md's JSON, never Spring Data REST's
 * or Spring Boot's body.
 */
@HalTest
class StockTest {

	private static final FakeStockService upstream = new FakeStockService();

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	/** The most an answer may take on a loaded machine (the conformance suite's bound). */
	private static final Duration ANSWER_WITHIN = Duration.ofSeconds(3);

	@Autowired
	private MockMvc mvc;

	@DynamicPropertySource
	static void stockUrl(DynamicPropertyRegistry registry) {
		registry.add("app.stock.url", upstream::url);
	}

	private ResultActions stock(Object id) throws Exception {
		return this.mvc.perform(get("/items/" + id + "/stock"));
	}

	private static ResultActions assertProblem(ResultActions result, int status, String title) throws Exception {
		return result.andExpect(status().is(status))
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.type").value("about:blank"))
			.andExpect(jsonPath("$.title").value(title))
			.andExpect(jsonPath("$.status").value(status))
			.andExpect(jsonPath("$.detail").isString());
	}

	@Test
	void answersTheQuantityOfTheCanonicalIdWithJsonAccepted() throws Exception {
		long id = upstream.newId();
		upstream.quantity(id, "345");
		stock("+00" + id).andExpect(status().isOk())
			.andExpect(header().string("Content-Type", "application/json"))
			.andExpect(content().json("{\"itemId\":" + id + ",\"quantity\":345}", JsonCompareMode.STRICT));
		assertThat(upstream.requests(id)).containsExactly(new Request("GET", "/stock/" + id, "application/json"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "2147483647" })
	void answersQuantitiesAtTheBounds(String quantity) throws Exception {
		long id = upstream.newId();
		upstream.quantity(id, quantity);
		stock(id).andExpect(status().isOk()).andExpect(jsonPath("$.quantity").value(Long.parseLong(quantity)));
	}

	@Test
	void asksForANegativeIdAsItIs() throws Exception {
		long id = -upstream.newId();
		upstream.quantity(id, "4");
		stock(id).andExpect(status().isOk()).andExpect(jsonPath("$.itemId").value(id));
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "0x10", "1.5", "99999999999999999999", "+", "%20" })
	void isA400ProblemForAnIdThatIsNoIntegerWithoutAskingTheStockService(String id) throws Exception {
		int before = upstream.requestCount();
		assertProblem(stock(id), 400, "Bad Request");
		assertThat(upstream.requestCount()).isEqualTo(before);
	}

	@Test
	void isA404ProblemWhenTheStockServiceHasNoRecord() throws Exception {
		long id = upstream.newId();
		assertProblem(stock(id), 404, "Not Found").andExpect(jsonPath("$.detail").value("no stock record for item " + id));
	}

	@ParameterizedTest
	@ValueSource(ints = { 201, 204, 400, 409, 500, 503 })
	void isA502ForAnyOtherStatusAskedOnce(int status) throws Exception {
		long id = upstream.newId();
		upstream.json(id, status, (status == 204) ? "" : "{\"quantity\":5}");
		assertProblem(stock(id), 502, "Bad Gateway");
		assertThat(upstream.requests(id)).hasSize(1);
	}

	@Test
	void isA502ForARedirectItDoesNotFollow() throws Exception {
		long id = upstream.newId();
		long elsewhere = upstream.newId();
		upstream.quantity(elsewhere, "8");
		upstream.script(id, new Respond(302, "text/html", "<a href=\"/stock/" + elsewhere + "\">moved</a>",
				Map.of("Location", "/stock/" + elsewhere)));
		assertProblem(stock(id), 502, "Bad Gateway");
		assertThat(upstream.requests(elsewhere)).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "not json", "", "{\"quantity\": 5", "[{\"quantity\": 5}]", "5", "null", "\"5\"" })
	void isA502ForABodyThatIsNoJsonObject(String body) throws Exception {
		long id = upstream.newId();
		upstream.json(id, 200, body);
		assertProblem(stock(id), 502, "Bad Gateway");
	}

	@Test
	void isA502ForABodyOfAnotherMediaType() throws Exception {
		long id = upstream.newId();
		upstream.script(id, new Respond(200, "text/html", "<p>quantity: 5</p>", Map.of()));
		assertProblem(stock(id), 502, "Bad Gateway");
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"5\"", "1.5", "5.0", "1e2", "-1", "2147483648", "true", "null", "{}", "[5]" })
	void isA502ForAQuantityThatIsNoIntegerInRange(String quantity) throws Exception {
		long id = upstream.newId();
		upstream.quantity(id, quantity);
		assertProblem(stock(id), 502, "Bad Gateway");
	}

	@Test
	void isA502ForAMissingQuantity() throws Exception {
		long id = upstream.newId();
		upstream.json(id, 200, "{\"itemId\":" + id + ",\"stock\":5}");
		assertProblem(stock(id), 502, "Bad Gateway");
	}

	@Test
	void isA502ForAConnectionClosedWithoutAnAnswer() throws Exception {
		long id = upstream.newId();
		upstream.script(id, new Close());
		assertProblem(stock(id), 502, "Bad Gateway");
	}

	@Test
	void isA502ForARefusedConnectionAndRecovers() throws Exception {
		long id = upstream.newId();
		upstream.quantity(id, "2");
		upstream.refusing(() -> assertProblemWithin(() -> stock(id), 502, "Bad Gateway", Duration.ZERO));
		stock(id).andExpect(status().isOk()).andExpect(jsonPath("$.quantity").value(2));
	}

	@Test
	void isA504AfterTheResponseTimeoutAndTheNextRequestIsPrompt() throws Exception {
		long id = upstream.newId();
		upstream.script(id, new Hang());
		assertProblemWithin(() -> stock(id), 504, "Gateway Timeout", TIMEOUT);
		long next = upstream.newId();
		upstream.quantity(next, "6");
		long started = System.nanoTime();
		stock(next).andExpect(status().isOk());
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT);
	}

	@Test
	void isA504WhenTheTimeoutPassesWhileTheBodyIsRead() {
		// Past the headers the JDK's client has no timeout of its own; Spring's closes the body.
		long id = upstream.newId();
		upstream.script(id, new Stall("{\"itemId\":" + id + ",\"quantity\":4}"));
		assertProblemWithin(() -> stock(id), 504, "Gateway Timeout", TIMEOUT);
	}

	@Test
	void isA504AfterTheConnectTimeout() {
		long id = upstream.newId();
		upstream.quantity(id, "3");
		upstream.unaccepting(() -> assertProblemWithin(() -> stock(id), 504, "Gateway Timeout", TIMEOUT));
	}

	/** In problem JSON on this path, while Spring Data REST's own 405s stay empty. */
	@ParameterizedTest
	@ValueSource(strings = { "POST", "PUT", "DELETE", "PATCH" })
	void isA405ProblemWithAllowForAnyOtherMethod(String method) throws Exception {
		long id = upstream.newId();
		assertProblem(this.mvc.perform(request(HttpMethod.valueOf(method), "/items/" + id + "/stock")
			.contentType("application/json")
			.content("{}")), 405, "Method Not Allowed").andExpect(header().string("Allow", "GET"));
		assertThat(upstream.requests(id)).isEqualTo(List.of());
	}

	@Test
	void leavesSpringDataRestIts405s() throws Exception {
		this.mvc.perform(request(HttpMethod.PATCH, "/items/5").contentType("application/json").content("{}"))
			.andExpect(status().isMethodNotAllowed())
			.andExpect(content().string(""));
	}

	/** The problem, answered after {@code atLeast} (with a tenth of slack) and within 3 s. */
	private static void assertProblemWithin(Call call, int status, String title, Duration atLeast) {
		long started = System.nanoTime();
		try {
			assertProblem(call.perform(), status, title);
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(took).isGreaterThanOrEqualTo(atLeast.multipliedBy(9).dividedBy(10)).isLessThan(ANSWER_WITHIN);
	}

	@FunctionalInterface
	private interface Call {

		ResultActions perform() throws Exception;

	}

}
