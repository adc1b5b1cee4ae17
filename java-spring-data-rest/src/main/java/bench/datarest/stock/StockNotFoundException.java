package bench.datarest.stock;

import java.io.Serial;

/** The stock service has no record of the item (its 404, and this endpoint's). */
class StockNotFoundException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	StockNotFoundException(long itemId) {
		super("no stock record for item " + itemId, null, false, false);
	}

}
