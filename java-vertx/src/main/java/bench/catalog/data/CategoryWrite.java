package bench.catalog.data;

/** What a create or a replace of a category writes; already valid. */
public record CategoryWrite(String code, String name) {}
