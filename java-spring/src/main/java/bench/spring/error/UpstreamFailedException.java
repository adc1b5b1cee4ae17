package bench.spring.error;

import java.io.Serial;

/**
 * The stock service refused the connection, dropped it, or answered something other than a stock
 * record or a 404 (502): its fault, not this service's.
 */
public class UpstreamFailedException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public UpstreamFailedException(String detail) {
		super(detail, null, false, false);
	}

	public UpstreamFailedException(String detail, Throwable cause) {
		super(detail, cause, false, false);
	}

}
