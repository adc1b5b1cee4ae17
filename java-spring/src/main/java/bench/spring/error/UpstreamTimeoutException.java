package bench.spring.error;

import java.io.Serial;

/** The stock service gave no connection, or no answer, within the client's timeout (504). */
public class UpstreamTimeoutException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public UpstreamTimeoutException(String detail, Throwable cause) {
		super(detail, cause, false, false);
	}

}
