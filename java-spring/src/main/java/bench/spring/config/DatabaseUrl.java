package bench.spring.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;

/**
 * The {@code postgres://user:password@host:port/database?params} form of {@code DATABASE_URL} as
 * Spring Boot's connection details: a {@code jdbc:postgresql:} URL plus the credentials, which stay
 * out of the URL so that they never show up where it is logged. Boot's JDBC auto-configuration
 * builds the HikariCP pool from it in place of {@code spring.datasource.url} and its credentials.
 */
public final class DatabaseUrl implements JdbcConnectionDetails {

	public static final String VARIABLE = "DATABASE_URL";

	private static final int DEFAULT_PORT = 5432;

	private final String jdbcUrl;

	private final String username;

	private final String password;

	private final String displayName;

	private DatabaseUrl(String jdbcUrl, String username, String password, String displayName) {
		this.jdbcUrl = jdbcUrl;
		this.username = username;
		this.password = password;
		this.displayName = displayName;
	}

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
		String database = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("^/", "");
		if (database.isEmpty()) {
			throw invalid("it names no database");
		}
		int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
		// getHost keeps the brackets of an IPv6 literal, which is also what the JDBC URL wants.
		String hostAndPort = uri.getHost() + ":" + port;
		String jdbcUrl = "jdbc:postgresql://" + hostAndPort + "/" + database
				+ (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());

		String username = null;
		String password = null;
		String userInfo = uri.getRawUserInfo();
		if (userInfo != null) {
			int colon = userInfo.indexOf(':');
			username = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
			password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
		}
		return new DatabaseUrl(jdbcUrl, username, password, hostAndPort + "/" + decode(database));
	}

	@Override
	public String getJdbcUrl() {
		return this.jdbcUrl;
	}

	@Override
	public String getUsername() {
		return this.username;
	}

	@Override
	public String getPassword() {
		return this.password;
	}

	/** Host, port and database, without the credentials: what a message may name. */
	public String displayName() {
		return this.displayName;
	}

	private static String decode(String raw) {
		return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
	}

	private static IllegalArgumentException invalid(String why) {
		return new IllegalArgumentException(VARIABLE + " is not a valid postgres:// URL: " + why);
	}

}
