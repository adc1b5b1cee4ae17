package bench.catalog.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * The contract's environment (spec/API.md, "Environment"), read and checked in one place. Both
 * the start-up check ({@link #fromEnvironment}) and the configuration source that hands the
 * values to Quarkus go through here.
 */
public record Settings(
        String host,
        int port,
        DatabaseUrl database,
        int poolSize,
        String stockUrl,
        String avatarBaseUrl,
        int avatarCount,
        boolean logRequests) {

    public static Settings fromEnvironment() {
        return from(System.getenv());
    }

    public static Settings from(Map<String, String> env) {
        String databaseUrl = env.get("DATABASE_URL");
        if (databaseUrl == null || databaseUrl.isBlank()) {
            throw new InvalidSettingException("DATABASE_URL is required (postgres://user:password@host:port/database)");
        }
        return new Settings(
                env.getOrDefault("HOST", "127.0.0.1"),
                integer(env, "PORT", 8080, 0, 65535),
                DatabaseUrl.parse(databaseUrl),
                integer(env, "DB_POOL_SIZE", 10, 1, 10_000),
                stockUrl(env.getOrDefault("STOCK_URL", "http://127.0.0.1:8099")),
                env.getOrDefault("AVATAR_BASE_URL", "https://avatar.example.com"),
                integer(env, "AVATAR_COUNT", 21, 1, Integer.MAX_VALUE),
                Boolean.parseBoolean(env.getOrDefault("LOG_REQUESTS", "false")));
    }

    /** STOCK_URL: an http URL of a host and port, with no path; one trailing '/' is tolerated. */
    static String stockUrl(String value) {
        String url = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
        try {
            URI uri = new URI(url);
            if ("http".equals(uri.getScheme()) && uri.getHost() != null && uri.getRawPath().isEmpty()
                    && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null) {
                return url;
            }
        } catch (URISyntaxException e) {
            // reported below, as every other malformed value
        }
        throw new InvalidSettingException("STOCK_URL must be an http URL of a host and port (http://host:port), not " + value);
    }

    private static int integer(Map<String, String> env, String name, int fallback, int min, int max) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidSettingException(name + " must be an integer from " + min + " to " + max + ", not " + value);
    }
}
