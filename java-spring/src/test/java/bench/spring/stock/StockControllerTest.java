package bench.spring.stock;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import bench.spring.stock.FakeStockService.Close;
import bench.spring.stock.FakeStockService.Hang;
import bench.spring.stock.FakeStockService.Request;
import bench.spring.stock.FakeStockService.Respond;
import bench.spring.stock.FakeStockService.Stall;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * GET /items/{id}/stock against a stock service started in the test ({@link FakeStockService}),
 * through each client: the stack's RestClient and the two variants' clients, each in a context of
 * its own Spring profile with the stack's settings (application.properties: the JDK's HttpClient,
 * timeouts of 1 s, no redirects). Every answer of the stock service maps the same way.
 */
@WebMvcTest(StockController.class)
@Import({ StockConfiguration.class, RestClientStock.class, RestTemplateStock.class, WebClientStock.class,
		WebClientStockConfiguration.class })
@ImportAutoConfiguration({ HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
		ReactiveHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
		RestTemplateAutoConfiguration.class, WebClientAutoConfiguration.class })
class StockControllerTest {

	private static final FakeStockService upstream = new FakeStockService();

	/** The stack's timeout, and the most an answer may take on a loaded machine (the suite's bound). */
	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final Duration ANSWER_WITHIN = Duration.ofSeconds(3);

	@DynamicPropertySource
	static void stockUrl(DynamicPropertyRegistry registry) {
		registry.add("app.stock.url", upstream::url);
	}

	@Nested
	class StackRestClient extends Cases {

		@Autowired
		private StockClient client;

		@Test
		void isTheStacksClient() {
			assertThat(this.client).isInstanceOf(RestClientStock.class);
		}

	}

	@Nested
	@ActiveProfiles(RestTemplateStock.PROFILE)
	class VariantRestTemplate extends Cases {

		@Autowired
		private StockClient client;

		@Test
		void isTheVariantsClient() {
			assertThat(this.client).isInstanceOf(RestTemplateStock.class);
		}

	}

	@Nested
	@ActiveProfiles(WebClientStock.PROFILE)
	class VariantWebClientBlocking extends Cases {

		@Autowired
		private StockClient client;

		@Test
		void isTheVariantsClient() {
			assertThat(this.client).isInstanceOf(WebClientStock.class);
		}

	}

	abstract static class Cases {

		@Autowired
		private MockMvc mvc;

		private ResultActions stock(Object id) throws Exception {
			return this.mvc.perform(get("/items/" + id + "/stock"));
		}

		private ResultActions assertProblem(ResultActions result, int status, String title) throws Exception {
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
		@ValueSource(strings = { "abc", "0x10", "1.5", "99999999999999999999", "+" })
		void isA400ForAnIdThatIsNoIntegerWithoutAskingTheStockService(String id) throws Exception {
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

		@ParameterizedTest
		@ValueSource(strings = { "POST", "PUT", "DELETE", "PATCH" })
		void isA405WithAllowForAnyOtherMethod(String method) throws Exception {
			long id = upstream.newId();
			assertProblem(this.mvc.perform(post("/items/" + id + "/stock").with(request -> {
				request.setMethod(method);
				return request;
			})), 405, "Method Not Allowed").andExpect(header().string("Allow", "GET"));
			assertThat(upstream.requests(id)).isEqualTo(List.of());
		}

		/** The problem, answered after {@code atLeast} (with a tenth of slack) and within 3 s. */
		private void assertProblemWithin(Call call, int status, String title, Duration atLeast) {
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

}
