package bench.datarest.stock;

import java.net.URI;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * spec/API.md's problem JSON, the one error body of {@code /items/{id}/stock}: {@code type}
 * about:blank, {@code title} the reason phrase, a detail in words.
 */
final class Problems {

	private static final URI BLANK = URI.create("about:blank");

	private Problems() {
	}

	/** The Content-Type is set, not negotiated: a problem is application/problem+json whatever the Accept. */
	static ResponseEntity<ProblemDetail> of(HttpStatusCode status, String detail, HttpHeaders headers) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		// Spring leaves the type out when it is about:blank; the API spells it out.
		problem.setType(BLANK);
		return ResponseEntity.status(status)
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(problem);
	}

	static ResponseEntity<ProblemDetail> of(HttpStatusCode status, String detail) {
		return of(status, detail, HttpHeaders.EMPTY);
	}

}
