package bench.webflux.error;

import java.io.Serial;

/**
 * The stock upstream gave no usable answer: it refused or dropped the connection, answered a
 * status other than 200 or 404, or a body that is not a stock record (502). Without a stack trace:
 * the fault is the upstream's, and the error map logs one line with the cause.
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
