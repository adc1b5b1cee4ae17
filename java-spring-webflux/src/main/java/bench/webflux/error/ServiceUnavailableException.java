package bench.webflux.error;

import java.io.Serial;

/** The database cannot be reached (503). */
public class ServiceUnavailableException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public ServiceUnavailableException(String detail, Throwable cause) {
		super(detail, cause);
	}

}
