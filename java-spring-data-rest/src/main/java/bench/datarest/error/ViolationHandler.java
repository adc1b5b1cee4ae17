package bench.datarest.error;

import java.util.List;

import org.springframework.context.MessageSource;
import org.springframework.context.support.MessageSourceAccessor;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.data.rest.core.RepositoryConstraintViolationException;
import org.springframework.data.rest.webmvc.support.RepositoryConstraintViolationExceptionMessage;
import org.springframework.data.rest.webmvc.support.RepositoryConstraintViolationExceptionMessage.ValidationError;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Spring Data REST's 400 for broken field rules, with what {@code invalidValue} repeats of a
 * string cut to {@value #MAX_ECHOED} characters (spec/hal.md): Spring Data REST echoes the whole
 * rejected value, so a body near the 1 MiB limit was answered with as much again, held in memory
 * twice over while it was written. The entries are Spring Data REST's own, built by its own class
 * from the same message source; only the echo is shortened.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ViolationHandler {

	/** Longer than any field rule allows (a name has at most 128), so a short value is whole. */
	static final int MAX_ECHOED = 256;

	private final MessageSourceAccessor messages;

	ViolationHandler(MessageSource messageSource) {
		this.messages = new MessageSourceAccessor(messageSource);
	}

	@ExceptionHandler
	ResponseEntity<Violations> violations(RepositoryConstraintViolationException ex) {
		List<ValidationError> errors = new RepositoryConstraintViolationExceptionMessage(ex, this.messages).getErrors()
			.stream()
			.map((error) -> ValidationError.of(error.getEntity(), error.getProperty(), echoed(error.getInvalidValue()),
					error.getMessage()))
			.toList();
		return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(new Violations(errors));
	}

	static Object echoed(Object invalidValue) {
		if (invalidValue instanceof CharSequence text && text.length() > MAX_ECHOED) {
			return text.subSequence(0, MAX_ECHOED) + "…";
		}
		return invalidValue;
	}

	/** The body Spring Data REST answers: {@code {"errors": [{entity, property, invalidValue, message}]}}. */
	record Violations(List<ValidationError> errors) {
	}

}
