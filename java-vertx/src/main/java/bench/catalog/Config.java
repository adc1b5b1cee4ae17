package bench.catalog;

import io.vertx.pgclient.PgConnectOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * The process's settings, read from the environment only (spec/API.md, "Environment").
 * {@code stockUrl} is the stock upstream's {@code http://host:port}, the port always given.
 */
public record Config(
        String host,
        int port,
        PgConnectOptions database,
        int poolSize,
        String avatarBaseUrl,
        int avatarCount,
        URI stockUrl,
        boolean logRequests) {

    private static final String DEFAULT_STOCK_URL = "http://127.0.0.1:8099";

    public static Config fromEnvironment(Map<String, String> env) {
        String databaseUrl = env.get("DATABASE_URL");
        if (databaseUrl == null || databaseUrl.isBlank()) {
            throw new IllegalArgumentException(
                    "DATABASE_URL is required (postgres://user:password@host:port/database)");
        }
        PgConnectOptions database;
        try {
            database = PgConnectOptions.fromUri(databaseUrl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "DATABASE_URL is not a postgres://user:password@host:port/database URL", e);
        }
        return new Config(
                env.getOrDefault("HOST", "127.0.0.1"),
                positive(env, "PORT", 8080),
                database,
                positive(env, "DB_POOL_SIZE", 10),
                env.getOrDefault("AVATAR_BASE_URL", "https://avatar.example.com"),
                positive(env, "AVATAR_COUNT", 21),
                stockUrl(env.getOrDefault("STOCK_URL", "")),
                Boolean.parseBoolean(env.getOrDefault("LOG_REQUESTS", "false")));
    }

    /** An http URL of a host and port, at most a slash after them: the client asks /stock/{id} there. */
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
                return new URI("http", null, uri.getHost(), uri.getPort() == -1 ? 80 : uri.getPort(), null, null, null);
            }
        } catch (URISyntaxException e) {
            // answered below, like any other value that is not a host and port
        }
        throw new IllegalArgumentException(
                "STOCK_URL must be an http URL of a host and port (" + DEFAULT_STOCK_URL + "), not '" + value + "'");
    }

    private static int positive(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below, with the variable's name
        }
        throw new IllegalArgumentException(name + " must be a positive integer, not '" + value + "'");
    }
}
