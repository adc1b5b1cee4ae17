package bench.catalog.config;

import io.smallrye.config.ConfigMapping;

/**
 * The application's own settings. Each takes its variable of the contract, with the contract's
 * default, in META-INF/microprofile-config.properties ({@code catalog.pool-size=${DB_POOL_SIZE:10}});
 * what Quarkus itself reads (host, port, the stock client's URL, the access log) is set there on
 * Quarkus' own keys instead, and never passes through here.
 */
@ConfigMapping(prefix = "catalog")
public interface Settings {

    /**
     * DB_POOL_SIZE: each application hands it to its own driver's pool in its
     * application.properties; the start-up line reports it from here, whichever pool that is.
     */
    int poolSize();

    /** The data access the start-up line names: each application's application.properties says. */
    String dataAccess();

    Avatar avatar();

    /** {@code GET /avatar}'s pictures: AVATAR_BASE_URL and AVATAR_COUNT. */
    interface Avatar {

        String baseUrl();

        int count();
    }
}
