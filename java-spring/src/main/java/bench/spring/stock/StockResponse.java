package bench.spring.stock;

/** {@code {"itemId": …, "quantity": …}}: the id asked for, and the stock service's quantity. */
record StockResponse(long itemId, int quantity) {
}
