package bench.webflux.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The {@code postgres://user:password@host:port/database?params} form of {@code DATABASE_URL},
 * turned into what R2DBC takes: an {@code r2dbc:postgresql:} URL plus the credentials, which stay
 * out of the URL so that they never show up where it is logged (and into PgJDBC's URL, the same
 * way, for the variant jdbc-bounded-elastic).
 */
public record DatabaseUrl(String r2dbcUrl, String username, String password, String displayName) {

	public static final String VARIABLE = "DATABASE_URL";

	private static final int DEFAULT_PORT = 5432;

	public static DatabaseUrl parse(String value) {
		URI uri;
		try {
			uri = new URI(value.strip());
		}
		catch (URISyntaxException ex) {
			throw invalid("it is not a URL");
		}
		String scheme = uri.getScheme();
		if (!"postgres".equals(scheme) && !"postgresql".equals(scheme)) {
			throw invalid("it must start with postgres://");
		}
		if (uri.getHost() == null) {
			throw invalid("it names no host");
		}
		String rawDatabase = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("^/", "");
		if (rawDatabase.isEmpty()) {
			throw invalid("it names no database");
		}
		int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
		// getHost keeps the brackets of an IPv6 literal, which is also what the R2DBC URL wants.
		String hostAndPort = uri.getHost() + ":" + port;
		String r2dbcUrl = "r2dbc:postgresql://" + hostAndPort + "/" + rawDatabase
				+ (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());

		String username = null;
		String password = null;
		String userInfo = uri.getRawUserInfo();
		if (userInfo != null) {
			int colon = userInfo.indexOf(':');
			username = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
			password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
		}
		return new DatabaseUrl(r2dbcUrl, username, password, hostAndPort + "/" + decode(rawDatabase));
	}

	/** The same database as a PgJDBC URL, credentials apart too (for the variant jdbc-bounded-elastic). */
	public String jdbcUrl() {
		return "jdbc:" + this.r2dbcUrl.substring("r2dbc:".length());
	}

	private static String decode(String raw) {
		return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
	}

	private static IllegalArgumentException invalid(String why) {
		return new IllegalArgumentException(VARIABLE + " is not a valid postgres:// URL: " + why);
	}

}
