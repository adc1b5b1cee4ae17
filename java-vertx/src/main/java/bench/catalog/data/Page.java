package bench.catalog.data;

import java.util.List;

/** One page of rows, with the number of rows in all pages. */
public record Page<T>(List<T> content, long totalElements) {}
