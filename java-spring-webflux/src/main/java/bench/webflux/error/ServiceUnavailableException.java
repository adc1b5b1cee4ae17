package bench.webflux.error;

/** The database cannot be reached (503). */
public class ServiceUnavailableException extends RuntimeException {

	public ServiceUnavailableException(String detail, Throwable cause) {
		super(detail, cause);
	}

}
