package bench.catalog;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Settings from the environment only; {@link #fromEnvironment} refuses anything it cannot use.
 * {@code stockUrl} is the stock upstream's {@code http://host:port}, without a trailing slash.
 */
public record Config(String host, int port, String jdbcUrl, String dbUser, String dbPassword, String dbTarget,
                     int poolSize, String avatarBaseUrl, int avatarCount, URI stockUrl, boolean logRequests) {

    private static final String DEFAULT_STOCK_URL = "http://127.0.0.1:8099";

    public static Config fromEnvironment(Map<String, String> env) {
        String databaseUrl = env.get("DATABASE_URL");
        if (databaseUrl == null || databaseUrl.isBlank()) {
            throw new IllegalArgumentException("DATABASE_URL is not set (postgres://user:password@host:port/database)");
        }
        URI uri;
        try {
            uri = new URI(databaseUrl.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("DATABASE_URL is not a URL: " + e.getReason());
        }
        if (!"postgres".equals(uri.getScheme()) && !"postgresql".equals(uri.getScheme())
                || uri.getHost() == null || uri.getRawPath() == null || uri.getRawPath().length() < 2) {
            throw new IllegalArgumentException("DATABASE_URL must look like postgres://user:password@host:port/database");
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = decode(parts[0]);
            password = parts.length > 1 ? decode(parts[1]) : null;
        }
        int dbPort = uri.getPort() == -1 ? 5432 : uri.getPort();
        String target = uri.getHost() + ":" + dbPort + uri.getRawPath();
        String jdbcUrl = "jdbc:postgresql://" + target + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());

        String avatarBaseUrl = env.getOrDefault("AVATAR_BASE_URL", "https://avatar.example.com");
        return new Config(
                env.getOrDefault("HOST", "127.0.0.1"),
                integer(env, "PORT", 8080, 0, 65535),
                jdbcUrl, user, password, target,
                integer(env, "DB_POOL_SIZE", 10, 1, 10_000),
                avatarBaseUrl.endsWith("/") ? avatarBaseUrl.substring(0, avatarBaseUrl.length() - 1) : avatarBaseUrl,
                integer(env, "AVATAR_COUNT", 21, 1, 1_000_000),
                stockUrl(env.getOrDefault("STOCK_URL", "")),
                Boolean.parseBoolean(env.getOrDefault("LOG_REQUESTS", "false").strip()));
    }

    private static int integer(Map<String, String> env, String name, int absent, int min, int max) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return absent;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below, like an out-of-range value
        }
        throw new IllegalArgumentException(name + " must be an integer between " + min + " and " + max + ", not " + value);
    }

    /** An http URL of a host and port, at most a slash after them: the client adds /stock/{id}. */
    private static URI stockUrl(String value) {
        if (value.isBlank()) {
            return URI.create(DEFAULT_STOCK_URL);
        }
        try {
            URI uri = new URI(value.strip());
            String path = uri.getRawPath();
            if ("http".equals(uri.getScheme()) && uri.getHost() != null && uri.getRawUserInfo() == null
                    && (path == null || path.isEmpty() || path.equals("/"))
                    && uri.getRawQuery() == null && uri.getRawFragment() == null) {
                return new URI("http", null, uri.getHost(), uri.getPort(), null, null, null);
            }
        } catch (URISyntaxException ignored) {
            // reported below, like any other value that is not a host and port
        }
        throw new IllegalArgumentException("STOCK_URL must be an http URL of a host and port (" + DEFAULT_STOCK_URL
                + "), not " + value);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "Config[host=" + host + ", port=" + port + ", database=" + dbTarget + ", poolSize=" + poolSize
                + ", stockUrl=" + stockUrl + "]";
    }
}
