package bench.spring.error;

/** The database refused the write because of the current state of other rows (409). */
public class ConflictException extends RuntimeException {

	public ConflictException(String detail) {
		super(detail, null, false, false);
	}

}
