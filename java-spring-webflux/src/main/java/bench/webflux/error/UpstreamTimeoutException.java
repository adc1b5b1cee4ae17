package bench.webflux.error;

import java.io.Serial;

/**
 * The stock upstream took no connection, or sent no answer, in time (504). Without a stack trace:
 * the fault is the upstream's, and the error map logs one line with the cause.
 */
public class UpstreamTimeoutException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public UpstreamTimeoutException(String detail, Throwable cause) {
		super(detail, cause, false, false);
	}

}
