package bench.webflux.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * {@code STOCK_URL}, the stock upstream's base URL ({@code http://host:port}): unset or blank is
 * the default, one trailing slash is dropped, anything but an http or https URL with a host is
 * refused at start.
 */
public record StockUrl(String baseUrl) {

	public static final String VARIABLE = "STOCK_URL";

	public static final String DEFAULT = "http://127.0.0.1:8099";

	public static StockUrl parse(String value) {
		if (value == null || value.isBlank()) {
			return new StockUrl(DEFAULT);
		}
		URI uri;
		try {
			uri = new URI(value.strip());
		}
		catch (URISyntaxException ex) {
			throw invalid(value, "it is not a URL");
		}
		String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw invalid(value, "it must start with http://");
		}
		if (uri.getHost() == null) {
			throw invalid(value, "it names no host");
		}
		if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
			throw invalid(value, "it must have no query or fragment");
		}
		String url = uri.toString();
		return new StockUrl(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
	}

	private static IllegalArgumentException invalid(String value, String why) {
		return new IllegalArgumentException(VARIABLE + "=" + value.strip() + " is not an http URL: " + why);
	}

}
