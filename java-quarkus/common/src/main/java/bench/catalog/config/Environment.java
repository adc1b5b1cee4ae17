package bench.catalog.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

/**
 * The contract's environment (spec/API.md, "Environment") checked before Quarkus starts. Where
 * each variable goes, and its default, is META-INF/microprofile-config.properties'; this class
 * only refuses. It exists because the contract wants a missing or malformed variable to end the
 * process with one line that names the variable, where Quarkus' own refusal of a value is a stack
 * trace that names its property instead, and may print the value (DATABASE_URL's password).
 * A variable that is unset is left to its default; one set to nothing is refused by name, since a
 * property expression takes an empty variable for its value, not for its absence (an empty
 * DB_POOL_SIZE failed the start with SmallRye's stack trace, an empty STOCK_URL every stock call).
 */
public final class Environment {

    /** The contract's variables that have a default (spec/API.md, "Environment"). */
    private static final List<String> WITH_DEFAULTS =
            List.of("HOST", "PORT", "DB_POOL_SIZE", "AVATAR_BASE_URL", "AVATAR_COUNT", "LOG_REQUESTS", "STOCK_URL");

    private Environment() {
    }

    public static void check(Map<String, String> env) {
        String databaseUrl = env.get("DATABASE_URL");
        if (databaseUrl == null || databaseUrl.isBlank()) {
            throw new InvalidSettingException("DATABASE_URL is required (postgres://user:password@host:port/database)");
        }
        DatabaseUrl.parse(databaseUrl);
        for (String name : WITH_DEFAULTS) {
            String value = env.get(name);
            if (value != null && value.isBlank()) {
                throw new InvalidSettingException(name + " is set but empty: unset it for its default");
            }
        }
        integer(env, "PORT", 0, 65535);
        integer(env, "DB_POOL_SIZE", 1, 10_000);
        integer(env, "AVATAR_COUNT", 1, Integer.MAX_VALUE);
        String stockUrl = env.get("STOCK_URL");
        if (stockUrl != null) {
            stockUrl(stockUrl);
        }
    }

    /**
     * STOCK_URL: an http URL of a host and port, with no path; one trailing '/' is tolerated, and
     * handed to the REST client as it is (it joins the base and {@code /stock} with one '/').
     */
    static void stockUrl(String value) {
        String url = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
        try {
            URI uri = new URI(url);
            if ("http".equals(uri.getScheme()) && uri.getHost() != null && uri.getRawPath().isEmpty()
                    && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null) {
                return;
            }
        } catch (URISyntaxException e) {
            // reported below, as every other malformed value
        }
        throw new InvalidSettingException("STOCK_URL must be an http URL of a host and port (http://host:port), not " + value);
    }

    private static void integer(Map<String, String> env, String name, int min, int max) {
        String value = env.get(name);
        if (value == null) {
            return;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= min && parsed <= max) {
                return;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidSettingException(name + " must be an integer from " + min + " to " + max + ", not " + value);
    }
}
