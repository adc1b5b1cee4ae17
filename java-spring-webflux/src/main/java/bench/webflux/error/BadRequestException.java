package bench.webflux.error;

import java.io.Serial;

/** A path or query parameter is malformed or out of range (400). */
public class BadRequestException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public BadRequestException(String detail) {
		super(detail, null, false, false);
	}

}
