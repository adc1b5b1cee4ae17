package bench.catalog.config;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The one line the contract asks for on start: the stack, its version, the port and the pool size. */
@ApplicationScoped
public class StartupLine {

    void started(@Observes StartupEvent event, Settings settings,
            @ConfigProperty(name = "quarkus.application.name") String stack,
            @ConfigProperty(name = "quarkus.application.version") String version,
            @ConfigProperty(name = "quarkus.http.host") String host,
            @ConfigProperty(name = "quarkus.http.port") int port) {
        System.out.printf("%s %s (Quarkus %s, %s, Java %s) listening on %s:%d, pool size %d%n", stack, version,
                quarkusVersion(), settings.dataAccess(), Runtime.version(), host, port, settings.poolSize());
    }

    private static String quarkusVersion() {
        String version = io.quarkus.runtime.Quarkus.class.getPackage().getImplementationVersion();
        return version == null ? "?" : version;
    }
}
