package bench.datarest.stock;

import java.io.Serial;

/**
 * The stock service refused the connection, dropped it, or answered something other than a stock
 * record or a 404 (502): its fault, not this service's.
 */
class UpstreamFailedException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	UpstreamFailedException(String detail) {
		super(detail, null, false, false);
	}

	UpstreamFailedException(String detail, Throwable cause) {
		super(detail, cause, false, false);
	}

}
