package bench.datarest.stock;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * {@code STOCK_URL}, the stock service's base URL: {@code http://host:port} (or https), no path,
 * one trailing slash tolerated. Anything else stops the start, as a malformed
 * {@code DATABASE_URL} does.
 */
public record StockUrl(URI uri) {

	public static final String VARIABLE = "STOCK_URL";

	public static StockUrl parse(String value) {
		URI uri;
		try {
			uri = new URI(value.strip());
		}
		catch (URISyntaxException ex) {
			throw invalid("it is not a URL");
		}
		String scheme = uri.getScheme();
		if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
			throw invalid("it must start with http://");
		}
		if (uri.getHost() == null) {
			throw invalid("it names no host");
		}
		String path = uri.getRawPath();
		if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
				|| uri.getRawFragment() != null) {
			throw invalid("it must name a host and port only, no path");
		}
		return new StockUrl(URI.create(scheme.toLowerCase() + "://" + uri.getRawAuthority()));
	}

	@Override
	public String toString() {
		return this.uri.toString();
	}

	private static IllegalArgumentException invalid(String why) {
		return new IllegalArgumentException(VARIABLE + " is not a valid http:// URL: " + why);
	}

}
