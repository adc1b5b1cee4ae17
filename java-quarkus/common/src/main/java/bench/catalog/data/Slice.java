package bench.catalog.data;

import java.util.List;

/** One page of rows, and how many rows there are in all. */
public record Slice<T>(List<T> content, long total) {
}
