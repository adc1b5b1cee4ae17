package bench.webflux.error;

import java.io.Serial;

/** An item names a category that does not exist. */
public class UnknownCategoryException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	private final long categoryId;

	public UnknownCategoryException(long categoryId) {
		super("category " + categoryId + " does not exist", null, false, false);
		this.categoryId = categoryId;
	}

	public long categoryId() {
		return this.categoryId;
	}

}
