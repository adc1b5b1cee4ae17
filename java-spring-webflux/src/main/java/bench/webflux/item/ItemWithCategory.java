package bench.webflux.item;

/** An item row joined with the code and name of its category. */
public record ItemWithCategory(Item item, String categoryCode, String categoryName) {
}
