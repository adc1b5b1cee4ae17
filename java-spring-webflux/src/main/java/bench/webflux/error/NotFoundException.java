package bench.webflux.error;

/** The addressed resource does not exist (404). */
public class NotFoundException extends RuntimeException {

	public NotFoundException(String detail) {
		super(detail, null, false, false);
	}

}
