package bench.datarest.stock;

import java.beans.PropertyEditorSupport;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * {@code GET /items/{id}/stock}: the stock service's quantity for the item. It is no repository's
 * operation, so Spring Data REST cannot express it: a plain controller beside the exported
 * repositories, whose answers are spec/API.md's, errors included (spec/hal.md). Its error map is
 * its own {@code @ExceptionHandler}s, which Spring MVC consults before any advice, so that
 * neither Spring Data REST's bodies nor this stack's other handlers answer for it. It reads
 * nothing from PostgreSQL, and does not judge whether the id names an item: the stock service
 * does, asked for the id's canonical decimal ({@code +5} and {@code 007} ask for 5).
 */
@RestController
class StockController {

	private static final Logger log = LoggerFactory.getLogger(StockController.class);

	private final StockClient stock;

	StockController(StockClient stock) {
		this.stock = stock;
	}

	@GetMapping("/items/{id}/stock")
	StockResponse get(@PathVariable long id) {
		return new StockResponse(id, this.stock.quantity(id));
	}

	/**
	 * Another method on the path. Unmapped, Spring MVC would refuse it before choosing a controller,
	 * where only Spring Boot's error body answers (and an advice for it would also take the 405s of
	 * Spring Data REST's own controllers from Spring Data REST's handler); refused here, the 405 is
	 * this controller's and its error map answers it. Before the id is read: the method is judged
	 * first.
	 */
	@RequestMapping(path = "/items/{id}/stock",
			method = { RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE })
	void otherMethod(HttpServletRequest request) throws HttpRequestMethodNotSupportedException {
		throw new HttpRequestMethodNotSupportedException(request.getMethod(), List.of("GET"));
	}

	/**
	 * The path id is {@code [+-]?[0-9]+} in the signed 64-bit range, as every path id of the API
	 * (spec/README.md): Spring's own conversion trims whitespace, reads {@code 0x10} as hex and
	 * takes any Unicode digit, each of which is a 400 here.
	 */
	@InitBinder
	void strictIds(WebDataBinder binder) {
		binder.registerCustomEditor(long.class, new PropertyEditorSupport() {
			@Override
			public void setAsText(String text) {
				if (!text.matches("[+-]?[0-9]+")) {
					throw new IllegalArgumentException("not a base-10 integer: " + text);
				}
				setValue(Long.parseLong(text));
			}
		});
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> badId(MethodArgumentTypeMismatchException ex) {
		return Problems.of(HttpStatus.BAD_REQUEST, ex.getName() + " must be a base-10 integer in the signed 64-bit range");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> methodNotAllowed(HttpRequestMethodNotSupportedException ex,
			HttpServletRequest request) {
		HttpHeaders headers = new HttpHeaders();
		headers.addAll(ex.getHeaders());
		return Problems.of(HttpStatus.METHOD_NOT_ALLOWED, "method " + ex.getMethod() + " is not allowed on "
				+ request.getRequestURI() + "; allowed: " + String.join(", ", ex.getSupportedMethods()), headers);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> notFound(StockNotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, ex.getMessage());
	}

	/**
	 * The stock service's failures are its own, not this service's: one line each, without a
	 * stack trace, and the detail in the API's words (the cause is in the log line only).
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> upstreamFailed(UpstreamFailedException ex) {
		log.warn("{}{}", ex.getMessage(), (ex.getCause() != null) ? ": " + rootCause(ex) : "");
		return Problems.of(HttpStatus.BAD_GATEWAY, ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> upstreamTimeout(UpstreamTimeoutException ex) {
		log.warn("{}: {}", ex.getMessage(), rootCause(ex));
		return Problems.of(HttpStatus.GATEWAY_TIMEOUT, ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> unexpected(Exception ex) {
		log.error("unexpected error on GET /items/{id}/stock", ex);
		return Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "an unexpected error occurred");
	}

	private static String rootCause(Throwable error) {
		Throwable cause = error;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause.getClass().getSimpleName() + ": " + cause.getMessage();
	}

}
