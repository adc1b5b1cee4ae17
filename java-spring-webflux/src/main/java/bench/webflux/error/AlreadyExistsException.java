package bench.webflux.error;

import java.io.Serial;

/** A write would repeat a unique key that another row already holds (a category's code, an item's sku). */
public class AlreadyExistsException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public AlreadyExistsException(String detail) {
		super(detail, null, false, false);
	}

}
