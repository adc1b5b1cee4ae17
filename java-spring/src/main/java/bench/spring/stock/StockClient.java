package bench.spring.stock;

import bench.spring.error.NotFoundException;
import bench.spring.error.UpstreamFailedException;
import bench.spring.error.UpstreamTimeoutException;

/**
 * The stock service, {@code GET {STOCK_URL}/stock/{id}}, asked once per call: no retries, no
 * redirects followed. One implementation is a bean, chosen by the Spring profile: RestClient by
 * default, RestTemplate ({@value RestTemplateStock#PROFILE}) or WebClient blocking on each call
 * ({@value WebClientStock#PROFILE}), the variants of impl.toml.
 */
interface StockClient {

	/**
	 * The item's quantity as the stock service answers it.
	 * @throws NotFoundException the stock service has no record of the item (its 404)
	 * @throws UpstreamFailedException no answer, or one that is not a stock record
	 * @throws UpstreamTimeoutException no connection or no answer within the timeouts
	 */
	int quantity(long itemId);

}
