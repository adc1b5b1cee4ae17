package bench.catalog;

import io.vertx.pgclient.PgConnectOptions;
import java.util.Map;

/** The process's settings, read from the environment only (spec/API.md, "Environment"). */
public record Config(
        String host,
        int port,
        PgConnectOptions database,
        int poolSize,
        String avatarBaseUrl,
        int avatarCount,
        boolean logRequests) {

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
                Boolean.parseBoolean(env.getOrDefault("LOG_REQUESTS", "false")));
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
