package bench.spring.stock;

import java.time.Duration;

import bench.spring.error.NotFoundException;
import bench.spring.error.UpstreamFailedException;
import bench.spring.error.UpstreamTimeoutException;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * What the stock service's answers mean, whichever client fetched them (spec/API.md, "The stock of
 * an item"): a 200 whose body is a JSON object with a {@code quantity} that is a JSON integer from
 * 0 to 2,147,483,647 is the quantity; a 404 is this API's 404; anything else is a 502, and silence
 * past the timeouts a 504. The details are the API's words; the causes go to the log only.
 */
final class StockAnswers {

	private StockAnswers() {
	}

	/** The error for an answer whose status is not 200. */
	static RuntimeException notOk(long itemId, HttpStatusCode status) {
		if (status.isSameCodeAs(HttpStatus.NOT_FOUND)) {
			return new NotFoundException("no stock record for item " + itemId);
		}
		return new UpstreamFailedException("the stock service answered " + status.value() + " for item " + itemId);
	}

	/**
	 * The quantity in a 200's body, read as a JSON tree (null when the body was empty). A fraction
	 * ({@code 1.5}, also {@code 1.0}), a string, a boolean or a number out of range is no quantity.
	 */
	static int quantity(long itemId, JsonNode body) {
		if (body == null || !body.isObject()) {
			throw new UpstreamFailedException("the stock service's answer for item " + itemId + " is not a JSON object");
		}
		JsonNode quantity = body.get("quantity");
		if (quantity == null || !quantity.isIntegralNumber() || !quantity.canConvertToInt() || quantity.intValue() < 0) {
			throw new UpstreamFailedException("the stock service's answer for item " + itemId + " has no valid quantity");
		}
		return quantity.intValue();
	}

	/**
	 * A 200 whose body is not JSON, not of a JSON media type, or cut short; or one the client's
	 * timeout cut while it was read ({@code timedOut}).
	 */
	static RuntimeException unreadable(long itemId, Throwable cause, boolean timedOut) {
		if (timedOut) {
			return new UpstreamTimeoutException("the stock service did not answer in time for item " + itemId, cause);
		}
		return new UpstreamFailedException(
				"the stock service's answer for item " + itemId + " could not be read as JSON", cause);
	}

	/** Whether the time since {@code startedNanos} ({@link System#nanoTime()}) reached {@code timeout}. */
	static boolean outlasted(long startedNanos, Duration timeout) {
		return System.nanoTime() - startedNanos >= timeout.toNanos();
	}

	/** No answer: the connection was refused, reset or closed early, or a timeout passed. */
	static RuntimeException noAnswer(long itemId, Throwable cause, boolean timedOut) {
		if (timedOut) {
			return new UpstreamTimeoutException("the stock service did not answer in time for item " + itemId, cause);
		}
		return new UpstreamFailedException("the stock service could not be reached for item " + itemId, cause);
	}

}
