package bench.catalog.errors;

import java.util.regex.Pattern;

/**
 * The methods each path of the API serves, for the {@code Allow} of a 405 (spec/README.md lists
 * them): Quarkus REST answers 405 without one. The resources are the truth; this table follows
 * them, and ApiTest and the conformance suite's 405 cases check each path.
 */
final class Routes {

    private static final Pattern COLLECTION = Pattern.compile("/(items|categories)");
    private static final Pattern MEMBER = Pattern.compile("/(items|categories)/[^/]+");

    private Routes() {
    }

    static String allowedMethods(String path) {
        if (COLLECTION.matcher(path).matches()) {
            return "GET, POST";
        }
        if (MEMBER.matcher(path).matches()) {
            return "GET, PUT, DELETE";
        }
        // /categories/{id}/items, /items/{id}/stock, /avatar, /health
        return "GET";
    }
}
