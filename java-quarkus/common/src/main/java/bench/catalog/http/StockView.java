package bench.catalog.http;

/** {@code GET /items/{id}/stock}: the id asked for, and the upstream's quantity. */
public record StockView(long itemId, int quantity) {
}
