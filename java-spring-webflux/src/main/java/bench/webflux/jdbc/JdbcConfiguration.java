package bench.webflux.jdbc;

import bench.webflux.config.DatabaseProperties;
import bench.webflux.config.DatabaseUrl;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The variant jdbc-bounded-elastic (impl.toml): the stack's controllers and services over blocking
 * JDBC instead of R2DBC, each call on Reactor's boundedElastic scheduler ({@link BoundedElastic}),
 * with the same SQL. Everything in this package exists under the Spring profile {@value #PROFILE}
 * only, and replaces the R2DBC implementations of the repositories and of the health check, which
 * exist only without it. application-jdbc-bounded-elastic.properties turns Boot's R2DBC
 * auto-configuration off and its DataSource auto-configuration (HikariCP) on, and sizes the pool.
 */
@Configuration(proxyBeanMethods = false)
@Profile(JdbcConfiguration.PROFILE)
public class JdbcConfiguration {

	public static final String PROFILE = "jdbc-bounded-elastic";

	/**
	 * The database of {@code DATABASE_URL}, which Boot's DataSource auto-configuration prefers to
	 * {@code spring.datasource.url} and its credentials when it builds the HikariCP pool.
	 */
	@Bean
	JdbcConnectionDetails jdbcConnectionDetails(DatabaseProperties properties) {
		DatabaseUrl url = DatabaseUrl.parse(properties.url());
		return new JdbcConnectionDetails() {

			@Override
			public String getJdbcUrl() {
				return url.jdbcUrl();
			}

			@Override
			public String getUsername() {
				return url.username();
			}

			@Override
			public String getPassword() {
				return url.password();
			}

		};
	}

}
