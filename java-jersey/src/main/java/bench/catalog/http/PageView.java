package bench.catalog.http;

import bench.catalog.data.Page;
import bench.catalog.data.PageRequest;
import java.util.List;
import java.util.function.Function;

/** The page envelope in the shape Spring Data serialises pages to. */
public record PageView<T>(List<T> content, Metadata page) {

    public record Metadata(int size, long number, long totalElements, long totalPages) {
    }

    static <E, T> PageView<T> of(Page<E> page, PageRequest request, Function<E, T> view) {
        long totalPages = (page.totalElements() + request.size() - 1) / request.size();
        return new PageView<>(page.content().stream().map(view).toList(),
                new Metadata(request.size(), request.number(), page.totalElements(), totalPages));
    }
}
