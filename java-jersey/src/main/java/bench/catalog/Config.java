package bench.catalog;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Settings from the environment, and only from there.
 *
 * @param jdbcUrl       the JDBC form of {@code DATABASE_URL}, without the credentials
 * @param databaseLabel {@code host:port/database}, for messages that must not show the password
 * @param stockUrl      the stock upstream's {@code http://host:port}, without a trailing slash
 * @param categoryItems how {@code /categories/{id}/items} is routed (the {@code resource-method} variant's knob)
 */
public record Config(
        String host,
        int port,
        String jdbcUrl,
        String databaseUser,
        String databasePassword,
        String databaseLabel,
        int poolSize,
        String avatarBaseUrl,
        int avatarCount,
        URI stockUrl,
        CategoryItems categoryItems,
        boolean logRequests) {

    private static final String DEFAULT_STOCK_URL = "http://127.0.0.1:8099";

    /**
     * {@code CATEGORY_ITEMS}: which resource class serves {@code /categories/{id}/items}. The
     * stack's own is a sub-resource locator; the other is the resource method it is measured
     * against (impl.toml's variant {@code resource-method}).
     */
    public enum CategoryItems {
        SUB_RESOURCE_LOCATOR("sub-resource-locator"),
        RESOURCE_METHOD("resource-method");

        private final String setting;

        CategoryItems(String setting) {
            this.setting = setting;
        }

        static CategoryItems from(String value) {
            for (CategoryItems choice : values()) {
                if (choice.setting.equals(value.trim())) {
                    return choice;
                }
            }
            throw new ConfigException("CATEGORY_ITEMS must be sub-resource-locator or resource-method, got '" + value + "'");
        }
    }

    /** Raised for a missing or malformed variable; its message is meant for the operator as is. */
    public static final class ConfigException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ConfigException(String message) {
            super(message);
        }
    }

    public static Config fromEnvironment() {
        return from(System.getenv());
    }

    public static Config from(Map<String, String> env) {
        String databaseUrl = env.get("DATABASE_URL");
        if (databaseUrl == null || databaseUrl.isBlank()) {
            throw new ConfigException("DATABASE_URL is not set (expected postgres://user:password@host:port/database)");
        }
        URI uri;
        try {
            uri = new URI(databaseUrl.trim());
        } catch (URISyntaxException e) {
            throw new ConfigException("DATABASE_URL is not a valid URL (expected postgres://user:password@host:port/database)");
        }
        String scheme = uri.getScheme();
        if ((!"postgres".equals(scheme) && !"postgresql".equals(scheme)) || uri.getHost() == null) {
            throw new ConfigException("DATABASE_URL must look like postgres://user:password@host:port/database");
        }
        String database = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("^/", "");
        if (database.isEmpty()) {
            throw new ConfigException("DATABASE_URL names no database (expected postgres://user:password@host:port/database)");
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String[] parts = uri.getRawUserInfo().split(":", 2);
            user = decode(parts[0]);
            password = parts.length > 1 ? decode(parts[1]) : null;
        }
        String hostPort = uri.getHost() + ":" + (uri.getPort() == -1 ? 5432 : uri.getPort());
        String jdbcUrl = "jdbc:postgresql://" + hostPort + "/" + database
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());

        return new Config(
                env.getOrDefault("HOST", "127.0.0.1"),
                integer(env, "PORT", 8080, 0, 65535),
                jdbcUrl,
                user,
                password,
                hostPort + "/" + decode(database),
                integer(env, "DB_POOL_SIZE", 10, 1, 1000),
                stripTrailingSlash(env.getOrDefault("AVATAR_BASE_URL", "https://avatar.example.com")),
                integer(env, "AVATAR_COUNT", 21, 1, Integer.MAX_VALUE),
                stockUrl(env.getOrDefault("STOCK_URL", "")),
                CategoryItems.from(env.getOrDefault("CATEGORY_ITEMS", CategoryItems.SUB_RESOURCE_LOCATOR.setting)),
                Boolean.parseBoolean(env.getOrDefault("LOG_REQUESTS", "false").trim()));
    }

    private static int integer(Map<String, String> env, String name, int fallback, int min, int max) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the accepted range
        }
        throw new ConfigException(name + " must be an integer between " + min + " and " + max + ", got '" + value + "'");
    }

    /**
     * {@code STOCK_URL}: an http URL of a host and port, at most a slash after them (the client
     * adds {@code /stock/{id}}); anything else ends the start, as a malformed DATABASE_URL does.
     */
    private static URI stockUrl(String value) {
        if (value.isBlank()) {
            return URI.create(DEFAULT_STOCK_URL);
        }
        try {
            URI uri = new URI(value.trim());
            String path = uri.getRawPath();
            if ("http".equals(uri.getScheme()) && uri.getHost() != null && uri.getRawUserInfo() == null
                    && (path == null || path.isEmpty() || path.equals("/"))
                    && uri.getRawQuery() == null && uri.getRawFragment() == null) {
                return new URI("http", null, uri.getHost(), uri.getPort(), null, null, null);
            }
        } catch (URISyntaxException ignored) {
            // reported below, like any other value that is not a host and port
        }
        throw new ConfigException("STOCK_URL must be an http URL of a host and port (" + DEFAULT_STOCK_URL + "), got '" + value + "'");
    }

    private static String decode(String value) {
        return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
