package bench.webflux.error;

/** A path or query parameter is malformed or out of range (400). */
public class BadRequestException extends RuntimeException {

	public BadRequestException(String detail) {
		super(detail, null, false, false);
	}

}
