package bench.webflux.error;

import java.io.Serial;

/** The addressed resource does not exist (404). */
public class NotFoundException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public NotFoundException(String detail) {
		super(detail, null, false, false);
	}

}
