package bench.spring.error;

import java.util.List;

import bench.spring.web.BodiesInFlightFilter;
import bench.spring.web.BodySizeLimitFilter;
import bench.spring.web.PageQuery;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * The one place where errors become problem JSON. Domain exceptions (the stock service's 502 and
 * 504 among them) carry their detail; Spring MVC's own exceptions (unknown route, wrong method,
 * Content-Type, unreadable body) keep their status and headers but get a detail in the API's
 * words; the catch-all turns everything else into a 503 when the database is out of reach, or a
 * logged 500 that tells nothing of its cause.
 */
@RestControllerAdvice
class ApiExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

	private static final String UNSUPPORTED_MEDIA_TYPE = "Content-Type must be application/json";

	/** What Spring's Jackson converter reads: application/json and application/*+json, with any parameters. */
	private static final List<MediaType> JSON = List.of(MediaType.APPLICATION_JSON, new MediaType("application", "*+json"));

	@ExceptionHandler
	ResponseEntity<ProblemDetail> notFound(NotFoundException ex) {
		return Problems.of(HttpStatus.NOT_FOUND, ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> alreadyExists(AlreadyExistsException ex) {
		return Problems.of(HttpStatus.CONFLICT, ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> stillReferenced(StillReferencedException ex) {
		return Problems.of(HttpStatus.CONFLICT, ex.getMessage());
	}

	/** An item's category is a field of its body: a 422 that names it. */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> unknownCategory(UnknownCategoryException ex) {
		return Problems.invalidFields(List.of(new InvalidFieldsException.FieldError("categoryId", ex.getMessage())));
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> badRequest(BadRequestException ex) {
		return Problems.of(HttpStatus.BAD_REQUEST, ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> invalidFields(InvalidFieldsException ex) {
		return Problems.invalidFields(ex.errors());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> unavailable(ServiceUnavailableException ex) {
		log.warn("{}: {}", ex.getMessage(), rootCause(ex));
		return Problems.of(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
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

	/**
	 * Tomcat refuses the whole query string when one pair cannot be decoded (an empty name such as
	 * {@code ?=3}, a bad escape such as {@code %zz}, bytes that are not UTF-8), whatever the pair's
	 * name, as soon as a parameter is asked for. That is the client's error (400), not ours.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> malformedQuery(InvalidParameterException ex) {
		return Problems.of(HttpStatusCode.valueOf(ex.getErrorCode()), "the query string is malformed");
	}

	/** A path id or query parameter that is not a base-10 signed 64-bit integer. */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException ex) {
		String name = ex.getName();
		return Problems.of(HttpStatus.BAD_REQUEST,
				PageQuery.RULES.getOrDefault(name, name + " must be a base-10 integer in the signed 64-bit range"));
	}

	/**
	 * The API orders the Content-Type (415) before the body's size (413) and syntax (400), but
	 * Spring may fail to read a body before it looks at the Content-Type: it peeks at the first
	 * byte (which trips the size limit of a declared Content-Length, or finds no room among the
	 * bodies being read: 503) and reads an empty body without a Content-Type as a missing body.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException ex, HttpServletRequest request) {
		MediaType contentType = contentType(request);
		if (contentType == null || JSON.stream().noneMatch(json -> json.includes(contentType))) {
			return unsupportedMediaType();
		}
		if (BodySizeLimitFilter.exceeded(ex)) {
			return Problems.of(HttpStatus.CONTENT_TOO_LARGE,
					"the request body is larger than " + BodySizeLimitFilter.MAX_BYTES + " bytes");
		}
		if (BodiesInFlightFilter.refused(ex)) {
			return Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "the server is busy, try again shortly");
		}
		return Problems.of(HttpStatus.BAD_REQUEST, "the request body is not valid JSON");
	}

	/** 415, with an {@code Accept} that names what is read (Spring's would add application/*+json). */
	private static ResponseEntity<ProblemDetail> unsupportedMediaType() {
		HttpHeaders headers = new HttpHeaders();
		headers.setAccept(List.of(MediaType.APPLICATION_JSON));
		return Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, UNSUPPORTED_MEDIA_TYPE, headers);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> any(Exception ex, HttpServletRequest request) {
		if (ex instanceof HttpMediaTypeNotSupportedException) {
			return unsupportedMediaType();
		}
		if (ex instanceof IllegalArgumentException && contentType(request) instanceof MediaType type
				&& (type.isWildcardType() || type.isWildcardSubtype())) {
			// Spring MVC fails on a wildcard Content-Type while it adds the request's charset to it
			// before reading a body (spring-framework#27957). A wildcard names no media type: 415.
			return unsupportedMediaType();
		}
		if (ex instanceof ErrorResponse response) {
			return Problems.of(response.getStatusCode(), detail(response, request), response.getHeaders());
		}
		if (DatabaseErrors.isUnavailable(ex)) {
			log.warn("database unavailable on {} {}: {}", request.getMethod(), request.getRequestURI(), rootCause(ex));
			return Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "the database is unavailable, try again shortly");
		}
		if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
			// The client left while its answer was written: Tomcat's ClientAbortException, however
			// Spring and Jackson wrap it (AsyncRequestNotUsableException, HttpMessageNotWritableException).
			// Its doing, not a fault here, and no one is left to answer. After the database's check:
			// the driver's EOFException of a lost connection is an outage, not a client.
			log.info("answer to {} {} not written, the client's connection ended: {}", request.getMethod(),
					request.getRequestURI(), rootCause(ex));
			return null;
		}
		log.error("unexpected error on {} {}", request.getMethod(), request.getRequestURI(), ex);
		return Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "an unexpected error occurred");
	}

	/** The request's Content-Type, or null when it has none or it is not one well-formed media type. */
	private static MediaType contentType(HttpServletRequest request) {
		String contentType = request.getContentType();
		try {
			return contentType == null ? null : MediaType.parseMediaType(contentType);
		}
		catch (InvalidMediaTypeException ex) {
			return null;
		}
	}

	private static String detail(ErrorResponse response, HttpServletRequest request) {
		return switch (response) {
			case NoHandlerFoundException _, NoResourceFoundException _ ->
				"no route for " + request.getMethod() + " " + request.getRequestURI();
			case HttpRequestMethodNotSupportedException ex -> "method " + ex.getMethod() + " is not allowed on "
					+ request.getRequestURI() + "; allowed: " + String.join(", ", ex.getSupportedMethods());
			case HttpMediaTypeNotAcceptableException _ -> "responses are only available as application/json";
			default -> {
				String detail = response.getBody().getDetail();
				yield detail != null ? detail : response.getBody().getTitle();
			}
		};
	}

	private static String rootCause(Throwable error) {
		Throwable cause = error;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause.getClass().getSimpleName() + ": " + cause.getMessage();
	}

}
