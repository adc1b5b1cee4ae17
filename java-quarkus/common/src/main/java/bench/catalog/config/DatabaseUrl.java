package bench.catalog.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * DATABASE_URL, always {@code postgres://user:password@host:port/database} (spec/API.md,
 * "Environment"), taken apart for the drivers, which each want their own form of it.
 */
public record DatabaseUrl(String host, int port, String database, String user, String password) {

    private static final int DEFAULT_PORT = 5432;

    public static DatabaseUrl parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw malformed();
        }
        String scheme = uri.getScheme();
        if (!"postgres".equals(scheme) && !"postgresql".equals(scheme)) {
            throw malformed();
        }
        String host = uri.getHost();
        String path = uri.getRawPath();
        String userInfo = uri.getRawUserInfo();
        if (host == null || path == null || path.length() < 2 || path.indexOf('/', 1) >= 0 || userInfo == null) {
            throw malformed();
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        if (user.isEmpty()) {
            throw malformed();
        }
        int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
        return new DatabaseUrl(host, port, decode(path.substring(1)), user, password);
    }

    /** The PostgreSQL JDBC driver's URL; the credentials go separately. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + hostAndPort() + "/" + database;
    }

    /** The Vert.x PostgreSQL client's URL; the credentials go separately. */
    public String reactiveUrl() {
        return "postgresql://" + hostAndPort() + "/" + database;
    }

    private String hostAndPort() {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    private static String decode(String part) {
        // Percent-escapes only: a '+' in a password is a plus, not a space.
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static InvalidSettingException malformed() {
        // The value itself is never echoed: it holds the password.
        return new InvalidSettingException(
                "DATABASE_URL is malformed: expected postgres://user:password@host:port/database");
    }
}
