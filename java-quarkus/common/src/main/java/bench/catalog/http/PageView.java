package bench.catalog.http;

import java.util.List;

/** A page, in the shape Spring Data gives one (spec/API.md, "Paging"). */
public record PageView<T>(List<T> content, Meta page) {

    public record Meta(int size, long number, long totalElements, long totalPages) {
    }

    public static <T> PageView<T> of(List<T> content, PageRequest request, long total) {
        long pages = (total + request.size() - 1) / request.size();
        return new PageView<>(content, new Meta(request.size(), request.page(), total, pages));
    }
}
