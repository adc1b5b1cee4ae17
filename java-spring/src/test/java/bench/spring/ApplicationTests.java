package bench.spring;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on a real port against the database of DATABASE_URL (the runner passes
 * a freshly seeded one): reads the seed exactly, then writes and cleans up rows of its own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class ApplicationTests {

	private static final HttpClient RAW = HttpClient.newHttpClient();

	@Autowired
	private RestTestClient client;

	@LocalServerPort
	private int port;

	@Autowired
	private WebServerApplicationContext context;

	@Value("${app.virtual-threads.max}")
	private int virtualThreadsMax;

	@Test
	void readsTheSeedWithItsCategoryInOneResponse() {
		this.client.get().uri("/items/12345").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.sku").isEqualTo("SKU-012345")
			.jsonPath("$.price").isEqualTo(600.55)
			.jsonPath("$.stock").isEqualTo(345)
			.jsonPath("$.categoryId").isEqualTo(345)
			.jsonPath("$.category").isEqualTo(Map.of("id", 345, "code", "CAT-0345", "name", "Category 345"))
			.jsonPath("$.updatedAt").isEqualTo("2026-01-01T03:25:45Z");

		this.client.get().uri("/categories/7/items?size=20&page=2").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content.length()").isEqualTo(10)
			.jsonPath("$.content[0].id").isEqualTo(80007)
			.jsonPath("$.page.totalElements").isEqualTo(50)
			.jsonPath("$.page.totalPages").isEqualTo(3);

		this.client.get().uri("/categories?page=9223372036854775807&size=100").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content").isEmpty()
			.jsonPath("$.page.number").isEqualTo(Long.MAX_VALUE)
			.jsonPath("$.page.totalElements").value(Number.class, total -> assertThat(total.longValue()).isGreaterThanOrEqualTo(2000))
			.jsonPath("$.page.totalPages").value(Number.class, pages -> assertThat(pages.longValue()).isGreaterThanOrEqualTo(20));

		this.client.get().uri("/health").exchange().expectStatus().isOk().expectBody().json("{\"status\":\"UP\"}");
	}

	@Test
	void writesAreJudgedByTheDatabase() {
		String suffix = UUID.randomUUID().toString().substring(0, 12);
		long categoryId = create("/categories", "{\"code\": \"T-" + suffix + "\", \"name\": \"Test\"}");
		String item = "{\"sku\": \"T-" + suffix + "\", \"name\": \"Thing\", \"price\": 9.5, \"stock\": 1, \"categoryId\": "
				+ categoryId + "}";
		long itemId = create("/items", item);

		this.client.get().uri("/items?categoryId=" + categoryId).exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content[0].id").isEqualTo(itemId)
			.jsonPath("$.content[0].category.code").isEqualTo("T-" + suffix);
		send("POST", "/items", item).expectStatus().isEqualTo(409);
		send("POST", "/items", item.replace("\"T-", "\"U-").replace("\"categoryId\": " + categoryId, "\"categoryId\": 987654321"))
			.expectStatus().isEqualTo(422)
			.expectBody().jsonPath("$.errors[0].field").isEqualTo("categoryId");
		send("PUT", "/items/" + itemId, item.replace("\"T-" + suffix + "\", \"name\"", "\"SKU-000001\", \"name\""))
			.expectStatus().isEqualTo(409);
		this.client.delete().uri("/categories/" + categoryId).exchange().expectStatus().isEqualTo(409);

		this.client.delete().uri("/items/" + itemId).exchange().expectStatus().isNoContent();
		this.client.delete().uri("/categories/" + categoryId).exchange().expectStatus().isNoContent();
		this.client.get().uri("/categories/" + categoryId + "/items").exchange().expectStatus().isNotFound();
	}

	/**
	 * Tomcat decodes the query string, which MockMvc does not. A pair it cannot decode (an empty
	 * name, an invalid escape, bytes that are not UTF-8) makes it refuse the whole query string,
	 * whatever the pair's name: the client's error, a 400 problem.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "=3", "=&=%09%0F%16&=%29%7B%0A%0B", "x=%zz", "y=%FF", "z=%", "page=%zz", "%zz=1" })
	void aQueryStringTomcatCannotDecodeIs400(String odd) throws IOException {
		for (String path : new String[] { "/items", "/categories", "/categories/1/items" }) {
			assertThat(get(path + "?size=1&" + odd)).startsWith("HTTP/1.1 400")
				.contains("Content-Type: application/problem+json")
				.contains("\"title\":\"Bad Request\"");
		}
	}

	/** As every framework form-decodes a query string: {@code +} is a space, {@code %2B} a plus. */
	@Test
	void queryIntegersAsTomcatDecodesThem() throws IOException {
		assertThat(get("/items?page=+5")).startsWith("HTTP/1.1 400");
		assertThat(get("/items?page=5+")).startsWith("HTTP/1.1 400");
		assertThat(get("/items?page=%2B5&size=%2B3")).startsWith("HTTP/1.1 200")
			.contains("\"id\":16,")
			.contains("\"size\":3,\"number\":5,");
		assertThat(get("/items?categoryId=13&&size=1&")).startsWith("HTTP/1.1 200").contains("\"sku\":\"SKU-000013\"");
		assertThat(get("/items?%C3%9C=null&%F2%8E%AA%82=x&size=2")).startsWith("HTTP/1.1 200");
		assertThat(get("/items/%2B5")).startsWith("HTTP/1.1 200").contains("\"sku\":\"SKU-000005\"");
	}

	/**
	 * Reads ignore the Content-Type; a write without a JSON one is a 415. multipart/form-data (with
	 * or without a boundary) was parsed by Spring's multipart resolver on every request, and a
	 * wildcard made Spring fail adding the request's charset to it: both were 500s.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "multipart/form-data", "multipart/form-data; boundary=x", ";;", "no/such; =",
			"application/x-www-form-urlencoded", "*/*", "application/*", "*/json", "application/json; charset=no-such" })
	void theContentTypeMattersOnlyToWrites(String contentType) throws Exception {
		assertThat(raw("GET", "/items/1", contentType, null).statusCode()).isEqualTo(200);
		assertThat(raw("GET", "/categories?size=2", contentType, null).statusCode()).isEqualTo(200);
		assertThat(raw("GET", "/health", contentType, null).statusCode()).isEqualTo(200);
		assertThat(raw("DELETE", "/items/999999999", contentType, null).statusCode()).isEqualTo(404);

		String body = "{\"code\": \"U-" + UUID.randomUUID().toString().substring(0, 12) + "\", \"name\": \"y\"}";
		for (String[] write : new String[][] { { "POST", "/categories" }, { "PUT", "/categories/1" },
				{ "POST", "/items" }, { "PUT", "/items/1" } }) {
			HttpResponse<String> response = raw(write[0], write[1], contentType, body);
			assertThat(response.statusCode()).as("%s %s", write[0], write[1]).isEqualTo(415);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(response.headers().firstValue("Accept")).hasValue("application/json");
			assertThat(response.body()).contains("\"status\":415");
		}
	}

	/** A charset parameter without a usable value reaches Tomcat as it is; the answer stays a 4xx. */
	@ParameterizedTest
	@ValueSource(strings = { "application/json; charset", "application/json; charset=", "application/json;;" })
	void aContentTypeWithABrokenCharsetIsNeverA5xx(String contentType) throws Exception {
		HttpResponse<String> response = raw("POST", "/categories", contentType, "{\"code\": \"X\"}");
		assertThat(response.statusCode()).isBetween(400, 499);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	/** Request headers that stop arriving: Tomcat closes the connection once 3 s pass without a byte. */
	@Test
	void aRequestWhoseHeadersStopArrivingIsClosed() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write("GET /items/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
			long start = System.nanoTime();
			assertThat(socket.getInputStream().read()).isEqualTo(-1);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(10));
		}
	}

	/** On virtual threads, Tomcat runs at most app.virtual-threads.max of its tasks at once; the next waits. */
	@Test
	@DisabledIfEnvironmentVariable(named = "VIRTUAL_THREADS", matches = "false")
	void tomcatRunsAtMostTheLimitOfTasksAtOnce() throws InterruptedException {
		Executor executor = ((TomcatWebServer) this.context.getWebServer()).getTomcat()
			.getConnector()
			.getProtocolHandler()
			.getExecutor();
		CountDownLatch started = new CountDownLatch(this.virtualThreadsMax);
		CountDownLatch release = new CountDownLatch(1);
		for (int i = 0; i < this.virtualThreadsMax; i++) {
			executor.execute(() -> {
				started.countDown();
				awaitQuietly(release);
			});
		}
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		CountDownLatch next = new CountDownLatch(1);
		executor.execute(next::countDown);
		assertThat(next.await(500, TimeUnit.MILLISECONDS)).isFalse();
		release.countDown();
		assertThat(next.await(10, TimeUnit.SECONDS)).isTrue();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The whole response to a GET of this request target, sent byte for byte (java.net.URI refuses %zz). */
	private String get(String target) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream()
				.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
			return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		}
	}

	/** A request with the Content-Type exactly as given, which Spring's own clients would parse first. */
	private HttpResponse<String> raw(String method, String pathAndQuery, String contentType, String body)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + pathAndQuery))
			.method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
		if (contentType != null) {
			request.header("Content-Type", contentType);
		}
		return RAW.send(request.build(), BodyHandlers.ofString());
	}

	private long create(String path, String body) {
		Map<?, ?> created = send("POST", path, body).expectStatus().isCreated()
			.expectBody(Map.class).returnResult().getResponseBody();
		assertThat(created).isNotNull();
		return ((Number) created.get("id")).longValue();
	}

	private RestTestClient.ResponseSpec send(String method, String path, String body) {
		return this.client.method(HttpMethod.valueOf(method)).uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange();
	}

}
