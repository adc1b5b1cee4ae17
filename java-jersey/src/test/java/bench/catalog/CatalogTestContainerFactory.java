package bench.catalog;

import bench.catalog.http.Json;
import jakarta.ws.rs.core.UriBuilder;
import java.io.IOException;
import java.net.URI;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.spi.TestContainer;
import org.glassfish.jersey.test.spi.TestContainerException;
import org.glassfish.jersey.test.spi.TestContainerFactory;

/**
 * JerseyTest's Grizzly container, but built by {@link Main#createServer} so that the tests
 * run against the production server set-up (worker pool, payload rules, error pages).
 */
final class CatalogTestContainerFactory implements TestContainerFactory {

    @Override
    public TestContainer create(URI baseUri, DeploymentContext context) {
        return new TestContainer() {
            private final HttpServer server = Main.createServer(baseUri, context.getResourceConfig(), Json.newMapper(), 10);
            private URI uri = baseUri;

            @Override
            public ClientConfig getClientConfig() {
                return null;
            }

            @Override
            public URI getBaseUri() {
                return uri;
            }

            @Override
            public void start() {
                try {
                    server.start();
                } catch (IOException e) {
                    throw new TestContainerException(e);
                }
                uri = UriBuilder.fromUri(baseUri).port(server.getListener("grizzly").getPort()).build();
            }

            @Override
            public void stop() {
                server.shutdownNow();
            }
        };
    }
}
