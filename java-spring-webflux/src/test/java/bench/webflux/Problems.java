package bench.webflux;

import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** Assertions on problem JSON, shared by the tests of every endpoint. */
public final class Problems {

	/** RFC 9110's reason phrases, the title of every problem. */
	private static final Map<Integer, String> TITLES = Map.of(400, "Bad Request", 404, "Not Found", 405,
			"Method Not Allowed", 409, "Conflict", 413, "Content Too Large", 415, "Unsupported Media Type", 422,
			"Unprocessable Content", 500, "Internal Server Error", 503, "Service Unavailable");

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
