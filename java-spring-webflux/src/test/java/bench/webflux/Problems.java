package bench.webflux;

import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Assertions on problem JSON, shared by the tests of every endpoint. */
public final class Problems {

	/** RFC 9110's reason phrases, the title of every problem. */
	private static final Map<Integer, String> TITLES = Map.ofEntries(Map.entry(400, "Bad Request"),
			Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"), Map.entry(409, "Conflict"),
			Map.entry(413, "Content Too Large"), Map.entry(415, "Unsupported Media Type"),
			Map.entry(422, "Unprocessable Content"), Map.entry(500, "Internal Server Error"),
			Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"));

	private Problems() {
	}

	/** A problem with this status, its exact title and a detail; the body for further checks. */
	public static WebTestClient.BodyContentSpec problem(WebTestClient.ResponseSpec response, int status) {
		return response.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type").isEqualTo("about:blank")
			.jsonPath("$.status").isEqualTo(status)
			.jsonPath("$.title").isEqualTo(TITLES.get(status))
			.jsonPath("$.detail").isNotEmpty();
	}

}
