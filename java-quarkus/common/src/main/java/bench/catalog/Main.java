package bench.catalog;

import bench.catalog.config.Environment;
import bench.catalog.config.InvalidSettingException;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The entry point of both applications: Quarkus takes the {@code @QuarkusMain} of its index, which
 * holds common's classes (META-INF/beans.xml). The environment is checked first, so that a missing
 * or malformed variable ends the process with one line on stderr that names it (Environment).
 */
@QuarkusMain
public final class Main {

    private Main() {
    }

    public static void main(String... args) {
        try {
            Environment.check(System.getenv());
        } catch (InvalidSettingException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
        Quarkus.run(args);
    }
}
