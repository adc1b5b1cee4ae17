package bench.datarest.error;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.dao.UncategorizedDataAccessException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * The errors Spring Data REST has no answer for, both 503s in API.md's problem JSON: the database
 * out of reach, as the process contract says (spec/API.md, "Database errors"), where it would
 * otherwise be a 500; and a request body refused because the bodies being read leave no room for
 * it (BodySizeLimitFilter, spec/API.md, "Overload and slow clients"). Only the exception types an
 * outage arrives as are taken, and among them only what
 * {@link DatabaseErrors#isUnavailable(Throwable)} calls unavailable; the rest goes on unchanged.
 * Constraint violations never come here: they stay Spring Data REST's 409.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class UnavailableHandler {

	private static final Logger log = LoggerFactory.getLogger(UnavailableHandler.class);

	@ExceptionHandler({ TransactionException.class, DataAccessResourceFailureException.class,
			TransientDataAccessResourceException.class, UncategorizedDataAccessException.class })
	ResponseEntity<ProblemDetail> unavailable(Exception ex) throws Exception {
		if (!DatabaseErrors.isUnavailable(ex)) {
			throw ex;
		}
		log.warn("database unavailable: {}", ex.getMessage());
		return DatabaseErrors.unavailable("the database is unavailable");
	}

	@ExceptionHandler
	ResponseEntity<ProblemDetail> busy(ServerBusyException ex) {
		return DatabaseErrors.unavailable(ex.getMessage());
	}

}
