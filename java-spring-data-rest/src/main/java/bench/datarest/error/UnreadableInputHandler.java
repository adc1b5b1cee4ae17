package bench.datarest.error;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.repository.support.QueryMethodParameterConversionException;
import org.springframework.data.rest.webmvc.support.ExceptionMessage;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Input that Spring Data REST cannot read, answered as the 400 it is, in Spring Data REST's own
 * error body ({@code {"message": …}}). Spring Data REST answers these with a 500
 * ({@code RepositoryRestExceptionHandler.handleMiscFailures}, and Spring Data JPA's refusal of a
 * page offset past {@code int}), and the contract has no 500 for bad input. Nothing else is
 * changed: every other error keeps Spring Data REST's answer.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnreadableInputHandler {

	private static final Logger log = LoggerFactory.getLogger(UnreadableInputHandler.class);

	/** Spring Data JPA's words when page × size does not fit the int offset JPA takes. */
	private static final String PAGE_OFFSET = "Page offset exceeds";

	/** Where a second decoding of an already decoded query value fails. */
	private static final String URI_DECODE_CLASS = "org.springframework.util.StringUtils";

	private static final String URI_DECODE_METHOD = "uriDecode";

	/** Where a page request with a negative index is refused. */
	private static final String PAGE_REQUEST_CLASS = "org.springframework.data.domain.AbstractPageRequest";

	private static final String CONSTRUCTOR = "<init>";

	/** Where a path id or linked id is converted to the repository's id type. */
	private static final String INVOKER_CLASS = "org.springframework.data.repository.support.ReflectionRepositoryInvoker";

	private static final String CONVERT_ID_METHOD = "convertId";

	/** Where a search resource looks up each query parameter by name among its method's parameters. */
	private static final String SEARCH_PARAMETERS_CLASS = "org.springframework.hateoas.server.core.MethodParameters";

	private static final String GET_PARAMETER_METHOD = "getParameter";

	private static final String ASSERT_CLASS = "org.springframework.util.Assert";

	private static final String NOT_OF_ITS_TYPE = "a path segment or query parameter is not of the type it names";

	/** A path id, a search parameter or a linked URI that is not of its type ({@code /items/abc}). */
	@ExceptionHandler({ ConversionFailedException.class, QueryMethodParameterConversionException.class })
	ResponseEntity<ExceptionMessage> unconvertible(RuntimeException ex) {
		return badRequest(NOT_OF_ITS_TYPE);
	}

	/** {@code ?page=2147483647&size=100}: a page whose first row is past any int offset. */
	@ExceptionHandler
	ResponseEntity<ExceptionMessage> pageOffset(InvalidDataAccessApiUsageException ex) {
		if (ex.getMessage() == null || !ex.getMessage().startsWith(PAGE_OFFSET)) {
			throw ex;
		}
		return badRequest("page × size is past the largest offset (2147483647)");
	}

	/**
	 * IllegalArgumentExceptions that bad input causes, each told by where it was thrown:
	 * <ul>
	 * <li>{@code ?sort=a%25}: Spring Data decodes each {@code sort} value once more after the
	 * servlet container has decoded the query, so a literal {@code %} reads as a broken escape and
	 * {@code StringUtils.uriDecode} throws;</li>
	 * <li>{@code ?page=2147483647&size=1}: the page's first row fits JPA's int offset, but the
	 * page's next link is page + 1, which overflows to a negative index, and
	 * {@code PageRequest} refuses it;</li>
	 * <li>{@code /items/%20}: a path id of only whitespace converts to no id at all, and the
	 * repository invoker asserts that it has one;</li>
	 * <li>{@code /items/search/byCategory?+=1}: a search resource looks up every query parameter
	 * among its method's parameters by name, and asserts that the name has text.</li>
	 * </ul>
	 * Any other IllegalArgumentException keeps Spring Data REST's answer.
	 */
	@ExceptionHandler
	ResponseEntity<ExceptionMessage> badValue(IllegalArgumentException ex) {
		StackTraceElement origin = origin(ex);
		if (thrownBy(origin, URI_DECODE_CLASS, URI_DECODE_METHOD)) {
			return badRequest("a query parameter holds a malformed percent-escape");
		}
		if (thrownBy(origin, PAGE_REQUEST_CLASS, CONSTRUCTOR)) {
			return badRequest("page is past the last page whose next page an int can number (2147483646)");
		}
		if (thrownBy(origin, INVOKER_CLASS, CONVERT_ID_METHOD)) {
			return badRequest(NOT_OF_ITS_TYPE);
		}
		if (thrownBy(origin, SEARCH_PARAMETERS_CLASS, GET_PARAMETER_METHOD)) {
			return badRequest("a query parameter of a search has a name of only whitespace");
		}
		throw ex;
	}

	/**
	 * {@code PUT /items/1/category} with {@code /categories/ } (a link whose id is whitespace):
	 * the conversion gives no id, which the repository invoker reports as an illegal state.
	 */
	@ExceptionHandler
	ResponseEntity<ExceptionMessage> noId(IllegalStateException ex) {
		if (!thrownBy(origin(ex), INVOKER_CLASS, CONVERT_ID_METHOD)) {
			throw ex;
		}
		return badRequest(NOT_OF_ITS_TYPE);
	}

	/** The frame that threw, past Spring's {@code Assert} helpers. */
	private static StackTraceElement origin(RuntimeException ex) {
		for (StackTraceElement frame : ex.getStackTrace()) {
			if (!ASSERT_CLASS.equals(frame.getClassName())) {
				return frame;
			}
		}
		return null;
	}

	private static boolean thrownBy(StackTraceElement frame, String className, String methodName) {
		return frame != null && className.equals(frame.getClassName()) && methodName.equals(frame.getMethodName());
	}

	private static ResponseEntity<ExceptionMessage> badRequest(String message) {
		log.debug("400: {}", message);
		return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(new ExceptionMessage(message));
	}

}
