package bench.spring.web;

import java.util.List;
import java.util.function.Function;

import org.springframework.data.domain.Page;

/**
 * The page envelope of the API, field for field what Spring Data's {@code PagedModel} serialises to.
 * Its own record because the page number of a request may exceed the int that {@code Page} holds.
 */
public record PageResponse<T>(List<T> content, Metadata page) {

	public static <E, T> PageResponse<T> of(Page<E> page, Function<? super E, T> mapper) {
		return new PageResponse<>(page.getContent().stream().map(mapper).toList(),
				new Metadata(page.getSize(), page.getNumber(), page.getTotalElements(), page.getTotalPages()));
	}

	/** A page that starts after the last element: no content, but the totals still tell the truth. */
	public static <T> PageResponse<T> pastTheEnd(PageQuery query, long totalElements) {
		long totalPages = (totalElements + query.size() - 1) / query.size();
		return new PageResponse<>(List.of(), new Metadata(query.size(), query.page(), totalElements, totalPages));
	}

	public record Metadata(long size, long number, long totalElements, long totalPages) {
	}

}
