package bench.catalog.data;

/** The writable fields of a category, already validated. */
public record CategoryData(String code, String name) {
}
