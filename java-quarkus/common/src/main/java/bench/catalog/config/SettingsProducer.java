package bench.catalog.config;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The settings as a bean, read from the environment once. */
@Singleton
public class SettingsProducer {

    @Produces
    @Singleton
    Settings settings() {
        return Settings.fromEnvironment();
    }
}
