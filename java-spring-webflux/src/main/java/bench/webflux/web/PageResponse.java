package bench.webflux.web;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

/**
 * The page envelope of the API, field for field what Spring Data's {@code PagedModel} serialises to.
 * Its own record because the page number of a request may exceed the int that {@code Page} holds,
 * and because reactive repositories return the content and the count as two publishers.
 */
public record PageResponse<T>(List<T> content, Metadata page) {

	/**
	 * Assembles a page the way Spring Data's {@code PageableExecutionUtils} does: the count runs
	 * only when the content does not already tell the total (a first page that is not full, or a
	 * partial last page, does). A page that starts past every row runs only the count.
	 */
	public static <E, T> Mono<PageResponse<T>> of(PageQuery query, Supplier<Mono<List<E>>> content,
			Supplier<Mono<Long>> count, Function<? super E, T> mapper) {
		if (!query.reachable()) {
			return count.get().map(total -> new PageResponse<>(List.of(), Metadata.of(query, total)));
		}
		return content.get().flatMap(rows -> {
			List<T> mapped = rows.stream().<T>map(mapper).toList();
			boolean partial = rows.size() < query.size() && (query.offset() == 0 || !rows.isEmpty());
			if (partial) {
				return Mono.just(new PageResponse<>(mapped, Metadata.of(query, query.offset() + rows.size())));
			}
			return count.get().map(total -> new PageResponse<>(mapped, Metadata.of(query, total)));
		});
	}

	public record Metadata(long size, long number, long totalElements, long totalPages) {

		static Metadata of(PageQuery query, long totalElements) {
			long totalPages = (totalElements + query.size() - 1) / query.size();
			return new Metadata(query.size(), query.page(), totalElements, totalPages);
		}

	}

}
