package bench.spring.error;

import java.net.URI;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Spring Boot's error page for what never reaches a controller: an error the servlet
 * container raised itself or an exception thrown in a filter. Its answer is problem JSON too.
 */
@RestController
class ProblemErrorController implements ErrorController {

	private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

	@RequestMapping("${server.error.path:/error}")
	ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
		Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		if (!(status instanceof Integer code)) {
			// Requested directly rather than forwarded to by the container: not a route of the API.
			return Problems.of(HttpStatus.NOT_FOUND, "no route for " + request.getMethod() + " " + request.getRequestURI());
		}
		HttpStatusCode statusCode = HttpStatusCode.valueOf(code);
		Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
		ResponseEntity<ProblemDetail> response;
		if (statusCode.is5xxServerError()) {
			Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
			log.error("error {} on {}", code, uri, exception instanceof Throwable throwable ? throwable : null);
			response = Problems.of(statusCode, "an unexpected error occurred");
		}
		else {
			HttpStatus known = HttpStatus.resolve(code);
			response = Problems.of(statusCode, known != null ? known.getReasonPhrase() : "the request failed");
		}
		if (uri instanceof String path) {
			// Otherwise Spring would name this controller's own path, /error, as the instance.
			response.getBody().setInstance(URI.create(path));
		}
		return response;
	}

}
