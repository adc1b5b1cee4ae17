package bench.catalog.config;

import io.quarkus.runtime.Quarkus;

/**
 * What each application's {@code main} does before Quarkus starts: a missing or malformed
 * variable of the contract ends the process with one line on stderr that names it.
 */
public final class Startup {

    private Startup() {
    }

    public static void run(String... args) {
        try {
            Settings.fromEnvironment();
        } catch (InvalidSettingException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
        Quarkus.run(args);
    }
}
