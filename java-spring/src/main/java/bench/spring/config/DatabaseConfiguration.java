package bench.spring.config;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The database comes from {@code DATABASE_URL}, the one URL form every stack of the benchmark
 * shares: as a {@code JdbcConnectionDetails} bean, which Spring Boot's JDBC auto-configuration
 * prefers to {@code spring.datasource.url} and its credentials when it builds the HikariCP pool
 * (its Docker Compose and Testcontainers support hand over their databases the same way). The
 * pool's other settings stay in {@code application.properties}.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

	@Bean
	DatabaseUrl databaseUrl(@Value("${" + DatabaseUrl.VARIABLE + "}") String value) {
		return DatabaseUrl.parse(value);
	}

}
