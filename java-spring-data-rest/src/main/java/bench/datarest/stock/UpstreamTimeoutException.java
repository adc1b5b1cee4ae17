package bench.datarest.stock;

import java.io.Serial;

/** The stock service gave no connection, or no answer, within the client's timeout (504). */
class UpstreamTimeoutException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	UpstreamTimeoutException(String detail, Throwable cause) {
		super(detail, cause, false, false);
	}

}
