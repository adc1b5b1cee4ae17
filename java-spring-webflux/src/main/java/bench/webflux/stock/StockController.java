package bench.webflux.stock;

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * An item's stock, as the stock upstream holds it. Nothing here reads PostgreSQL, so it answers
 * while the database is down; the id is not judged here either (the upstream's 404 says whether
 * it names an item), only parsed like every other path id.
 */
@RestController
class StockController {

	private final StockClient stock;

	StockController(StockClient stock) {
		this.stock = stock;
	}

	@GetMapping("/items/{id}/stock")
	Mono<Stock> stock(@PathVariable long id) {
		return this.stock.quantity(id).map(quantity -> new Stock(id, quantity));
	}

	record Stock(long itemId, int quantity) {
	}

}
