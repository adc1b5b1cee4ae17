package bench.webflux.error;

import java.net.URI;
import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** RFC 9457 responses: {@code type} about:blank, {@code title} the reason phrase, a detail in words. */
final class Problems {

	private static final URI BLANK = URI.create("about:blank");

	private Problems() {
	}

	static ResponseEntity<ProblemDetail> of(HttpStatusCode status, String detail) {
		return of(status, detail, HttpHeaders.EMPTY);
	}

	/**
	 * The Content-Type is set here rather than negotiated, so that a client asking for
	 * {@code application/json} (or anything else) still gets {@code application/problem+json}.
	 * The title is Spring Framework 7's reason phrase of the status, RFC 9110's.
	 */
	static ResponseEntity<ProblemDetail> of(HttpStatusCode status, String detail, HttpHeaders headers) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		// Spring leaves the type out when it is about:blank; the API spells it out.
		problem.setType(BLANK);
		return ResponseEntity.status(status)
			.headers(headers)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(problem);
	}

	static ResponseEntity<ProblemDetail> invalidFields(List<InvalidFieldsException.FieldError> errors) {
		ResponseEntity<ProblemDetail> response = of(HttpStatusCode.valueOf(422),
				"the request body has " + (errors.size() == 1 ? "an invalid field" : errors.size() + " invalid fields"));
		response.getBody().setProperty("errors", errors);
		return response;
	}

}
