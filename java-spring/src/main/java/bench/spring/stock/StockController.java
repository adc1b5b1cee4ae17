package bench.spring.stock;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /items/{id}/stock}: the stock service's quantity for the item. It reads nothing from
 * PostgreSQL, and does not judge whether the id names an item: the stock service does. The id is
 * bound like every path id ({@code web/StrictLongBinding}), so the stock service is asked for its
 * canonical decimal ({@code +5} and {@code 007} ask for 5).
 */
@RestController
class StockController {

	private final StockClient stock;

	StockController(StockClient stock) {
		this.stock = stock;
	}

	@GetMapping("/items/{id}/stock")
	StockResponse get(@PathVariable long id) {
		return new StockResponse(id, this.stock.quantity(id));
	}

}
