package bench.webflux.stock;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import bench.webflux.config.StockClientConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.reactive.server.WebTestClient;

import static bench.webflux.Problems.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * GET /items/{id}/stock against a fake upstream on a real port: the real WebClient, its pool and
 * timeouts, and the error map, with BlockHound watching the event loops (nothing may block on the
 * way out or back). No database is involved.
 */
@WebFluxTest(StockController.class)
@Import({ StockClient.class, StockClientConfiguration.class })
// Boot's WebClient.Builder, which the WebFlux slice leaves out.
@ImportAutoConfiguration(WebClientAutoConfiguration.class)
class StockControllerTest {

	private static final FakeUpstream upstream = startUpstream();

	/** The connect and response timeouts. */
	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	/** The longest the contract lets a timed-out request take (spec/API.md allows ~1 s + ε, tested as 3 s). */
	private static final Duration AT_MOST = Duration.ofSeconds(3);

	@Autowired
	private WebTestClient client;

	@DynamicPropertySource
	static void stockUrl(DynamicPropertyRegistry registry) {
		// With the one trailing slash STOCK_URL may end with.
		registry.add("app.stock.url", () -> upstream.url() + "/");
	}

	@AfterAll
	static void stopUpstream() {
		upstream.stop();
	}

	@Test
	void answersTheUpstreamsQuantityForTheCanonicalId() {
		upstream.json("5", 200, "{\"itemId\": 5, \"quantity\": 12, \"warehouse\": \"ignored\"}");
		for (String id : List.of("5", "+5", "005")) {
			this.client.get().uri("/items/" + id + "/stock").exchange()
				.expectStatus().isOk()
				.expectHeader().contentType(MediaType.APPLICATION_JSON)
				.expectBody().json("{\"itemId\": 5, \"quantity\": 12}", JsonCompareMode.STRICT);
		}
		assertThat(upstream.asked("5")).hasSize(3)
			.allSatisfy(asked -> assertThat(asked.accept()).isEqualTo(MediaType.APPLICATION_JSON_VALUE));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "2147483647" })
	void takesEveryQuantityAnIntHolds(String quantity) {
		upstream.json("6", 200, "{\"quantity\": " + quantity + "}");
		this.client.get().uri("/items/6/stock").exchange()
			.expectStatus().isOk()
			.expectBody().json("{\"itemId\": 6, \"quantity\": " + quantity + "}", JsonCompareMode.STRICT);
	}

	@Test
	void readsTheBodyWhateverItsContentType() {
		upstream.script("7", new FakeUpstream.Answer.Http(200, "text/plain", "{\"quantity\": 3}", 0));
		this.client.get().uri("/items/7/stock").exchange()
			.expectStatus().isOk()
			.expectBody().json("{\"itemId\": 7, \"quantity\": 3}", JsonCompareMode.STRICT);
	}

	@Test
	void anItemTheUpstreamDoesNotKnowIs404() {
		problem(this.client.get().uri("/items/-3/stock").exchange(), 404).jsonPath("$.detail")
			.isEqualTo("no stock record for item -3");
		assertThat(upstream.asked("-3")).hasSize(1);
	}

	@ParameterizedTest
	@ValueSource(ints = { 500, 503, 400, 401, 410, 429, 201, 204 })
	void anyOtherStatusIs502(int status) {
		upstream.json("8", status, status == 204 ? "" : "{\"quantity\": 1}");
		problem(this.client.get().uri("/items/8/stock").exchange(), 502).jsonPath("$.detail")
			.isEqualTo("the stock service answered " + status);
	}

	@Test
	void aRedirectIsNotFollowed() {
		upstream.json("9", 200, "{\"quantity\": 1}");
		upstream.script("10", new FakeUpstream.Answer.Redirect("/stock/9"));
		problem(this.client.get().uri("/items/10/stock").exchange(), 502);
		assertThat(upstream.asked("9")).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "garbage", "", "[1]", "null", "7", "{}", "{\"quantity\": null}", "{\"quantity\": \"7\"}",
			"{\"quantity\": 1.5}", "{\"quantity\": 5.0}", "{\"quantity\": 1e2}", "{\"quantity\": -1}",
			"{\"quantity\": 2147483648}", "{\"quantity\": 99999999999999999999}", "{\"quantity\": true}",
			"{\"quantity\": [7]}", "{\"quantity\": 7} x", "{\"quantity\": 7" })
	void aBodyThatIsNotAStockRecordIs502(String body) {
		upstream.json("11", 200, body);
		problem(this.client.get().uri("/items/11/stock").exchange(), 502).jsonPath("$.detail")
			.isEqualTo("the stock service's answer is not a stock record");
	}

	@Test
	void aConnectionClosedBeforeTheWholeAnswerIs502() {
		upstream.script("12", new FakeUpstream.Answer.CloseMidway());
		problem(this.client.get().uri("/items/12/stock").exchange(), 502);
	}

	@Test
	void noAnswerWithinOneSecondIs504() {
		// A first exchange, so that the one timed below is not also the first the client makes.
		this.client.get().uri("/items/999/stock").exchange().expectStatus().isNotFound();
		upstream.script("13", new FakeUpstream.Answer.Http(200, "application/json", "{\"quantity\": 1}", 5_000));
		long started = System.nanoTime();
		problem(this.client.get().uri("/items/13/stock").exchange(), 504).jsonPath("$.detail")
			.isEqualTo("the stock service did not answer in time");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(TIMEOUT, AT_MOST);
	}

	@Test
	void idsAreParsedLikeEveryOtherPathId() {
		for (String id : List.of("abc", "1.5", "0x10", "9223372036854775808")) {
			problem(this.client.get().uri("/items/" + id + "/stock").exchange(), 400);
		}
		assertThat(upstream.asked("abc")).isEmpty();
	}

	@Test
	void otherMethodsAre405WithAllowGet() {
		for (HttpMethod method : List.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.PATCH)) {
			problem(this.client.method(method).uri("/items/5/stock").exchange().expectHeader().valueEquals("Allow", "GET"),
					405);
		}
	}

	/** Nothing listens on the upstream's port: refused, 502. */
	@Nested
	class WhenTheUpstreamRefuses {

		@DynamicPropertySource
		static void closedPort(DynamicPropertyRegistry registry) throws IOException {
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				registry.add("app.stock.url", () -> "http://127.0.0.1:" + socket.getLocalPort());
			}
		}

		@Test
		void aRefusedConnectionIs502() {
			problem(StockControllerTest.this.client.get().uri("/items/5/stock").exchange(), 502).jsonPath("$.detail")
				.isEqualTo("no answer from the stock service");
		}

	}

	/**
	 * A listener that never accepts and whose backlog is full: the kernel drops the connection's
	 * SYN, so the connection is neither made nor refused, as with an upstream out of reach.
	 */
	@Nested
	class WhenNoConnectionIsMade {

		private static final List<Socket> queued = new ArrayList<>();

		private static ServerSocket listener;

		/** Whether a connection attempt went unanswered, as Linux does by default (tcp_abort_on_overflow=0). */
		private static boolean synDropped;

		@DynamicPropertySource
		static void fullBacklog(DynamicPropertyRegistry registry) throws IOException {
			listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
			InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
			for (int i = 0; i < 8; i++) {
				Socket socket = new Socket();
				try {
					socket.connect(address, 200);
					queued.add(socket);
				}
				catch (SocketTimeoutException ex) {
					socket.close();
					synDropped = true;
					break;
				}
			}
			registry.add("app.stock.url", () -> "http://127.0.0.1:" + listener.getLocalPort());
		}

		@AfterAll
		static void close() throws IOException {
			for (Socket socket : queued) {
				socket.close();
			}
			listener.close();
		}

		@Test
		void noConnectionWithinOneSecondIs504() {
			assumeTrue(synDropped, "this kernel refuses, rather than ignores, a connection to a full backlog");
			long started = System.nanoTime();
			problem(StockControllerTest.this.client.get().uri("/items/5/stock").exchange(), 504);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(TIMEOUT, AT_MOST);
		}

	}

	private static FakeUpstream startUpstream() {
		try {
			return FakeUpstream.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("the fake upstream could not start", ex);
		}
	}

}
