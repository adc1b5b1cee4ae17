package bench.catalog.data;

import java.util.List;

/** One page of rows and the number of rows on all pages together. */
public record Page<T>(List<T> content, long totalElements) {

    static <T> Page<T> empty(long totalElements) {
        return new Page<>(List.of(), totalElements);
    }
}
