package bench.webflux.error;

/** A write would repeat a unique key that another row already holds (a category's code, an item's sku). */
public class AlreadyExistsException extends RuntimeException {

	public AlreadyExistsException(String detail) {
		super(detail, null, false, false);
	}

}
