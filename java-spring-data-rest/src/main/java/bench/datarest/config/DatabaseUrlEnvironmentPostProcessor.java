package bench.datarest.config;

import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Derives Spring Boot's {@code spring.datasource.*} from {@code DATABASE_URL}, so the auto-configured
 * HikariCP pool is built from the one URL form every stack of the benchmark shares. Registered in
 * {@code META-INF/spring.factories}, so it applies to the application and to its tests alike.
 */
class DatabaseUrlEnvironmentPostProcessor implements EnvironmentPostProcessor {

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		String value = environment.getProperty(DatabaseUrl.VARIABLE);
		if (value == null || value.isBlank()) {
			// Application.main reports a missing DATABASE_URL in one line before Spring starts.
			return;
		}
		DatabaseUrl url = DatabaseUrl.parse(value);
		Map<String, Object> properties = new HashMap<>();
		properties.put("spring.datasource.url", url.jdbcUrl());
		if (url.username() != null) {
			properties.put("spring.datasource.username", url.username());
		}
		if (url.password() != null) {
			properties.put("spring.datasource.password", url.password());
		}
		environment.getPropertySources().addFirst(new MapPropertySource("databaseUrl", properties));
	}

}
