package bench.webflux.web;

import java.util.Map;

import bench.webflux.error.BadRequestException;

import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;

/** {@code ?page=&size=} of a list endpoint: page 0-based, size 1..100, always ordered by id. */
public record PageQuery(long page, int size) {

	public static final int DEFAULT_SIZE = 20;

	public static final int MAX_SIZE = 100;

	/** What each paging parameter must be, also the detail of a 400 when one is not even an integer. */
	public static final Map<String, String> RULES = Map.of(
			"page", "page must be an integer >= 0",
			"size", "size must be an integer between 1 and " + MAX_SIZE);

	private static final Sort BY_ID = Sort.by("id");

	public static PageQuery of(Long page, Long size) {
		if (page != null && page < 0) {
			throw new BadRequestException(RULES.get("page"));
		}
		if (size != null && (size < 1 || size > MAX_SIZE)) {
			throw new BadRequestException(RULES.get("size"));
		}
		return new PageQuery(page == null ? 0 : page, size == null ? DEFAULT_SIZE : size.intValue());
	}

	/**
	 * False when the page starts past Integer.MAX_VALUE rows: Spring Data numbers pages in ints,
	 * and no table here comes near that many rows, so such a page is empty (and the offset of a
	 * reachable page always fits a long).
	 */
	public boolean reachable() {
		return this.page <= Integer.MAX_VALUE / this.size;
	}

	/** The number of rows before this page; only for a {@link #reachable()} page. */
	public long offset() {
		return this.page * this.size;
	}

	public Pageable pageable() {
		if (!reachable()) {
			throw new IllegalStateException("page " + this.page + " of size " + this.size + " is out of int range");
		}
		return PageRequest.of((int) this.page, this.size, BY_ID);
	}

}
