package bench.webflux.error;

import java.util.List;

import bench.webflux.web.PageQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.TypeMismatchException;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * The one place where errors become problem JSON. Domain exceptions carry their detail; WebFlux's
 * own exceptions (unknown route, wrong method, Content-Type, body size, unreadable body, malformed
 * path id or query parameter) keep their status and headers but get a detail in the API's words;
 * the stock upstream's failures are a 502 or a 504; the catch-all answers a client that left while
 * its body was read with a 400 and one line of log, and turns everything else into a 503 when the
 * database is out of reach, or a logged 500 that tells nothing of its cause. WebFlux's
 * DispatcherHandler routes the errors raised before a handler is chosen (no route, wrong method)
 * here too.
 */
@RestControllerAdvice
class ApiExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

	/** spring.http.codecs.max-in-memory-size, the most of a body that is read. */
	private static final long MAX_BODY_BYTES = 1024 * 1024;

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
	 * A body refused before a byte of it was read, for want of room among those being read
	 * (bench.webflux.web.BodiesInFlightFilter): the connection is closed after the answer rather
	 * than read to the body's end, as spec/API.md asks ("Overload and slow clients").
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> busy(ServerBusyException ex) {
		HttpHeaders headers = new HttpHeaders();
		headers.setConnection("close");
		return Problems.of(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage(), headers);
	}

	/** The stock upstream's fault rather than this service's: one line, no stack trace. */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> upstreamFailed(UpstreamFailedException ex, ServerHttpRequest request) {
		log.warn("stock upstream failed on {} {}: {}", request.getMethod(), request.getPath(), withCause(ex));
		return Problems.of(HttpStatus.BAD_GATEWAY, ex.getMessage());
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> upstreamTimeout(UpstreamTimeoutException ex, ServerHttpRequest request) {
		log.warn("stock upstream timed out on {} {}: {}", request.getMethod(), request.getPath(), withCause(ex));
		return Problems.of(HttpStatus.GATEWAY_TIMEOUT, ex.getMessage());
	}

	/**
	 * A path id or query parameter that is not a base-10 signed 64-bit integer, or a body that
	 * is empty or not JSON. An empty body without a JSON Content-Type gets here as a missing body
	 * (WebFlux looks at the Content-Type only once there are bytes to read): a 415 like any other
	 * write without a JSON Content-Type.
	 */
	@ExceptionHandler
	ResponseEntity<ProblemDetail> badInput(ServerWebInputException ex, ServerHttpRequest request) {
		MethodParameter parameter = ex.getMethodParameter();
		if (ex.getCause() instanceof TypeMismatchException) {
			String name = parameter != null ? parameter.getParameterName() : null;
			name = name != null ? name : "a path or query parameter";
			return Problems.of(HttpStatus.BAD_REQUEST,
					PageQuery.RULES.getOrDefault(name, name + " must be a base-10 integer in the signed 64-bit range"));
		}
		if (parameter != null && parameter.hasParameterAnnotation(RequestBody.class)) {
			if (!isJson(request.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE))) {
				return unsupportedMediaType();
			}
			return Problems.of(HttpStatus.BAD_REQUEST, "No request body".equals(ex.getReason())
					? "the request body is empty, which is not valid JSON" : "the request body is not valid JSON");
		}
		return Problems.of(HttpStatus.BAD_REQUEST, "the request is malformed");
	}

	/**
	 * 415, with an {@code Accept} that names what is read (WebFlux's would list every type its
	 * readers take, and says nothing at all for a form Content-Type).
	 */
	private static ResponseEntity<ProblemDetail> unsupportedMediaType() {
		HttpHeaders headers = new HttpHeaders();
		headers.setAccept(List.of(MediaType.APPLICATION_JSON));
		return Problems.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json", headers);
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> any(Exception ex, ServerHttpRequest request) {
		if (ex instanceof ErrorResponse response && !response.getStatusCode().is5xxServerError()) {
			if (response.getStatusCode().value() == HttpStatus.UNSUPPORTED_MEDIA_TYPE.value()) {
				return unsupportedMediaType();
			}
			return Problems.of(response.getStatusCode(), detail(response, request), response.getHeaders());
		}
		if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
			// The client closed or reset its connection while its body was read: Reactor Netty's
			// AbortedException, or the socket's IOException, as they come (WebFlux wraps only a
			// DecodingException). Its doing, not a fault here, and no one is left to read the answer:
			// one line, no stack trace. Spring's test leaves a DataAccessException alone, the form
			// every database error takes by the time it gets here, so an outage is still a 503.
			log.info("request body not read on {} {}, the client's connection ended: {}", request.getMethod(),
					request.getPath(), rootCause(ex));
			return Problems.of(HttpStatus.BAD_REQUEST, "the request body could not be read");
		}
		if (DatabaseErrors.isUnavailable(ex)) {
			log.warn("database unavailable on {} {}: {}", request.getMethod(), request.getPath(), rootCause(ex));
			return Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "the database is unavailable, try again shortly");
		}
		log.error("unexpected error on {} {}", request.getMethod(), request.getPath(), ex);
		return Problems.of(HttpStatus.INTERNAL_SERVER_ERROR, "an unexpected error occurred");
	}

	private static String detail(ErrorResponse response, ServerHttpRequest request) {
		return switch (response) {
			case MethodNotAllowedException ex -> "method " + ex.getHttpMethod() + " is not allowed on "
					+ request.getPath() + "; allowed: " + String.join(", ", ex.getSupportedMethods().stream()
						.map(Object::toString).sorted().toList());
			case NotAcceptableStatusException _ -> "responses are only available as application/json";
			case ContentTooLargeException _ -> "the request body is larger than " + MAX_BODY_BYTES + " bytes";
			default -> {
				if (response.getStatusCode().value() == HttpStatus.NOT_FOUND.value()) {
					yield "no route for " + request.getMethod() + " " + request.getPath();
				}
				String detail = response.getBody().getDetail();
				yield detail != null ? detail : response.getBody().getTitle();
			}
		};
	}

	private static boolean isJson(String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			return MediaType.APPLICATION_JSON.equalsTypeAndSubtype(MediaType.parseMediaType(contentType));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	/** The innermost cause, on one line: its class and, when it has one, its message. */
	private static String rootCause(Throwable error) {
		Throwable cause = error;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		String name = cause.getClass().getSimpleName();
		return cause.getMessage() == null ? name : name + ": " + cause.getMessage().replaceAll("\\s*\\R\\s*", " ");
	}

	private static String withCause(Throwable error) {
		return error.getCause() == null ? error.getMessage() : error.getMessage() + " (" + rootCause(error) + ")";
	}

}
