package bench.catalog.db;

import java.util.List;

/** One page of rows and the total count of the rows it was taken from. */
public record Page<T>(List<T> content, PageRequest request, long totalElements) {

    public long totalPages() {
        return totalElements == 0 ? 0 : (totalElements - 1) / request.size() + 1;
    }
}
