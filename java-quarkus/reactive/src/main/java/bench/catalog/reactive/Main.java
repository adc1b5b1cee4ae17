package bench.catalog.reactive;

import bench.catalog.config.Startup;
import io.quarkus.runtime.annotations.QuarkusMain;

/** Checks the environment, then starts Quarkus. */
@QuarkusMain
public final class Main {

    private Main() {
    }

    public static void main(String... args) {
        Startup.run(args);
    }
}
