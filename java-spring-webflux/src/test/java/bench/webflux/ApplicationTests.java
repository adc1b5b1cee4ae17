package bench.webflux;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static bench.webflux.Problems.problem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on Reactor Netty, on a real port, against the database of DATABASE_URL
 * (the runner passes a freshly seeded one): reads the seed exactly, then writes and cleans up rows
 * of its own. BlockHound watches every event loop meanwhile (blockhound-junit-platform installs it
 * for the whole test run): a blocking call on one fails the request, and so the test.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class ApplicationTests {

	private static final HttpClient RAW = HttpClient.newHttpClient();

	@Autowired
	private WebTestClient client;

	@LocalServerPort
	private int port;

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

		this.client.get().uri("/items?size=3&page=5").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content[*].id").isEqualTo(java.util.List.of(16, 17, 18))
			.jsonPath("$.page.totalElements").value(Number.class,
					total -> assertThat(total.longValue()).isGreaterThanOrEqualTo(100000));

		this.client.get().uri("/categories?page=9223372036854775807&size=100").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content").isEmpty()
			.jsonPath("$.page.number").isEqualTo(Long.MAX_VALUE)
			.jsonPath("$.page.totalElements").value(Number.class, total -> assertThat(total.longValue()).isGreaterThanOrEqualTo(2000))
			.jsonPath("$.page.totalPages").value(Number.class, pages -> assertThat(pages.longValue()).isGreaterThanOrEqualTo(20));

		this.client.get().uri("/items/999999999").exchange().expectStatus().isNotFound();
		this.client.get().uri("/categories/999999999/items").exchange().expectStatus().isNotFound();
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
			.jsonPath("$.content[0].price").isEqualTo(9.5)
			.jsonPath("$.content[0].category.code").isEqualTo("T-" + suffix);
		problem(send("POST", "/items", item), 409);
		problem(send("POST", "/items", item.replace("\"T-", "\"U-")
			.replace("\"categoryId\": " + categoryId, "\"categoryId\": 987654321")), 422)
			.jsonPath("$.errors[0].field").isEqualTo("categoryId");
		problem(send("PUT", "/items/" + itemId, item.replace("\"T-" + suffix + "\", \"name\"", "\"SKU-000001\", \"name\"")),
				409);
		problem(send("PUT", "/categories/" + categoryId, "{\"code\": \"CAT-0001\", \"name\": \"n\"}"), 409);
		problem(send("PUT", "/items/999999999", item), 404);
		problem(this.client.delete().uri("/categories/" + categoryId).exchange(), 409);

		send("PUT", "/items/" + itemId, item.replace("9.5", "1e2")).expectStatus().isOk()
			.expectBody().jsonPath("$.price").isEqualTo(100.0).jsonPath("$.description").isEmpty();
		this.client.delete().uri("/items/" + itemId).exchange().expectStatus().isNoContent();
		this.client.delete().uri("/categories/" + categoryId).exchange().expectStatus().isNoContent();
		problem(this.client.get().uri("/categories/" + categoryId + "/items").exchange(), 404);
		problem(this.client.delete().uri("/items/" + itemId).exchange(), 404);
	}

	/** Parsing, Bean Validation and the error map on the event loop, as BlockHound watches them. */
	@Test
	void invalidBodiesAreJudgedOnTheEventLoop() {
		problem(send("POST", "/items", """
				{"sku": " ", "name": 5, "price": 1.234, "stock": -1, "description": "a\\u0000", "categoryId": "7"}"""), 422)
			.jsonPath("$.errors.length()").isEqualTo(6);
		problem(send("PUT", "/categories/1", "{\"code\": \"" + "x".repeat(33) + "\"}"), 422)
			.jsonPath("$.errors.length()").isEqualTo(2);
		problem(send("POST", "/categories", "{\"code\": "), 400);
		problem(send("POST", "/categories", "[]"), 422);
	}

	/** As every framework form-decodes a query string: {@code +} is a space, {@code %2B} a plus. */
	@Test
	void queryIntegersAsReactorNettyDecodesThem() throws IOException {
		assertThat(get("/items?page=+5")).startsWith("HTTP/1.1 400");
		assertThat(get("/items?page=5+")).startsWith("HTTP/1.1 400");
		assertThat(get("/items?page=%2B5&size=%2B3")).startsWith("HTTP/1.1 200")
			.contains("\"id\":16,")
			.contains("\"size\":3,\"number\":5,");
		assertThat(get("/items?categoryId=13&&size=1&")).startsWith("HTTP/1.1 200").contains("\"sku\":\"SKU-000013\"");
		assertThat(get("/items?%C3%9C=null&%F2%8E%AA%82=x&size=2")).startsWith("HTTP/1.1 200");
		assertThat(get("/items/%2B5")).startsWith("HTTP/1.1 200").contains("\"sku\":\"SKU-000005\"");
	}

	/** Inputs only a fuzzer sends: whatever the answer, never a 5xx. */
	@ParameterizedTest
	@ValueSource(strings = { "/items?=3", "/items?page=%zz", "/items?%zz=1", "/categories?&&", "/items/%zz",
			"/items/%", "/categories/%zz/items" })
	void oddRequestTargetsAreNeverA5xx(String target) throws IOException {
		assertThat(get(target)).matches("(?s)HTTP/1\\.1 [234]\\d\\d .*");
	}

	/**
	 * Reads ignore the Content-Type; writes take JSON only. None of these is a 5xx, and the body,
	 * which lacks a name, changes nothing whatever reads it.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "multipart/form-data", "multipart/form-data; boundary=x", ";;", "no/such; =",
			"application/json-patch+json", "application/x-www-form-urlencoded", "*/*", "application/*", "*/json",
			"application/json; charset", "text/plain" })
	void theContentTypeMattersOnlyToWrites(String contentType) throws Exception {
		assertThat(raw("GET", "/items/1", contentType, null).statusCode()).isEqualTo(200);
		assertThat(raw("GET", "/categories?size=2", contentType, null).statusCode()).isEqualTo(200);
		assertThat(raw("GET", "/health", contentType, null).statusCode()).isEqualTo(200);
		assertThat(raw("DELETE", "/items/999999999", contentType, null).statusCode()).isEqualTo(404);
		for (String[] write : new String[][] { { "POST", "/categories" }, { "PUT", "/categories/1" },
				{ "POST", "/items" }, { "PUT", "/items/1" } }) {
			HttpResponse<String> response = raw(write[0], write[1], contentType, "{\"code\": \"X\"}");
			assertThat(response.statusCode()).as("%s %s", write[0], write[1]).isBetween(400, 499);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		}
	}

	/**
	 * An answer sent before the request body was read (415 here) leaves the connection usable for
	 * the next request: Reactor Netty 1.3.7 could stop reading it (reactor-netty#4347).
	 */
	@Test
	void aKeepAliveConnectionOutlivesABodyThatWasNeverRead() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(5_000);
			InputStream in = socket.getInputStream();
			for (int i = 0; i < 50; i++) {
				String body = "{\"code\": \"X\"}";
				socket.getOutputStream().write(("PUT /items/1 HTTP/1.1\r\nHost: t\r\nContent-Type: application/*\r\n"
						+ "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
				assertThat(readResponse(in)).startsWith("HTTP/1.1 415");
				socket.getOutputStream().write("GET /avatar HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				assertThat(readResponse(in)).startsWith("HTTP/1.1 302");
			}
		}
	}

	/**
	 * A client that closes after its last request: a kept-alive GET read to its end, then one with
	 * {@code Connection: close} on the same connection, each try on a connection of its own. That
	 * request can arrive before Reactor Netty has finished with the previous one (whose end is
	 * signalled from r2dbc's thread); without {@code reactor.netty.http.server.lastFlushWhenNoRead}, 1.3.8
	 * buffers it and never answers (README.md, "Keep-alive").
	 */
	@Test
	void aClosingRequestAfterAKeptAliveOneIsAnswered() throws IOException {
		for (int i = 1; i <= 100; i++) {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				socket.setSoTimeout(5_000);
				InputStream in = socket.getInputStream();
				socket.getOutputStream().write(("GET /categories/" + i + " HTTP/1.1\r\nHost: t\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
				assertThat(readResponse(in)).startsWith("HTTP/1.1 200");
				socket.getOutputStream().write(("GET /items/" + i + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
				assertThat(readResponse(in)).as("try %d", i).startsWith("HTTP/1.1 200");
				assertThat(in.read()).as("the server closes the connection").isEqualTo(-1);
			}
		}
	}

	/**
	 * Three GETs pipelined in one write, the last or the middle one with {@code Connection: close}:
	 * each request up to the closing one is answered in order, then the connection is closed.
	 * Reactor Netty 1.3.8 answered the first alone and closed (PipelinedCloseHandler says why).
	 */
	@ParameterizedTest
	@ValueSource(ints = { 2, 1 })
	void pipelinedRequestsAreAnsweredInOrderUpToTheClosingOne(int closeAt) throws IOException {
		for (int i = 1; i <= 50; i++) {
			String[] targets = { "/categories/" + i, "/items/" + i, "/categories/" + (i + 1) };
			StringBuilder requests = new StringBuilder();
			for (int n = 0; n < targets.length; n++) {
				requests.append("GET ").append(targets[n]).append(" HTTP/1.1\r\nHost: t\r\n")
					.append(n == closeAt ? "Connection: close\r\n" : "").append("\r\n");
			}
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				socket.setSoTimeout(5_000);
				InputStream in = socket.getInputStream();
				socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.US_ASCII));
				String[] expected = { "\"code\":\"CAT-%04d\"".formatted(i), "\"sku\":\"SKU-%06d\"".formatted(i),
						"\"code\":\"CAT-%04d\"".formatted(i + 1) };
				for (int n = 0; n <= closeAt; n++) {
					assertThat(readResponse(in)).as("try %d, answer %d", i, n + 1)
						.startsWith("HTTP/1.1 200")
						.contains(expected[n]);
				}
				assertThat(in.read()).as("the server closes the connection after the closing request's answer")
					.isEqualTo(-1);
			}
		}
	}

	/**
	 * Request headers that come one line every 5 s and never end: Reactor Netty closes the
	 * connection 9 s after it opened (server.netty.idle-timeout); the line at 5 s does not put it
	 * off, which would make it 14 s.
	 */
	@Test
	void aRequestWhoseHeadersNeverEndIsClosed9SecondsAfterItOpened() throws Exception {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(20_000);
			long start = System.nanoTime();
			socket.getOutputStream().write("GET /items/1 HTTP/1.1\r\nHost: t\r\n".getBytes(StandardCharsets.US_ASCII));
			Thread.sleep(5_000);
			socket.getOutputStream().write("X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII));
			assertThat(socket.getInputStream().read()).isEqualTo(-1);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(12));
		}
	}

	@Test
	void aChunkedBodyOverOneMebibyteIs413() throws Exception {
		byte[] body = ("{\"code\": \"X\", \"name\": \"" + "n".repeat(1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/categories"))
			.header("Content-Type", "application/json")
			// ofInputStream has no length: the JDK client sends it chunked
			.POST(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
			.build();
		HttpResponse<String> response = RAW.send(request, BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"title\":\"Content Too Large\"");
	}

	/** BlockHound is on: blocking on a request's event loop fails that request. */
	@Test
	void aBlockingCallOnTheEventLoopFails() {
		this.client.get().uri("/test/sleep").exchange().expectStatus().is5xxServerError();
	}

	@TestConfiguration
	static class BlockingProbe {

		@Bean
		SleepingController sleepingController() {
			return new SleepingController();
		}

	}

	@RestController
	static class SleepingController {

		@GetMapping("/test/sleep")
		Mono<String> sleep() {
			return Mono.fromCallable(() -> {
				Thread.sleep(1);
				return "slept on " + Thread.currentThread().getName();
			});
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

	/** One response with a Content-Length body (or none), read off a kept-alive connection. */
	private static String readResponse(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (!head.toString().endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("connection closed after: " + head);
			}
			head.append((char) b);
		}
		int length = 0;
		for (String line : head.toString().split("\r\n")) {
			if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
				length = Integer.parseInt(line.substring("content-length:".length()).trim());
			}
		}
		return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
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

	private WebTestClient.ResponseSpec send(String method, String path, String body) {
		return this.client.method(HttpMethod.valueOf(method)).uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

}
