package bench.catalog.http;

/** The stock of an item as the API shows it: the id asked for, and the upstream's quantity. */
public record StockView(long itemId, int quantity) {
}
