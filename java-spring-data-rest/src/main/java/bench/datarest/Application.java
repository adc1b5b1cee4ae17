package bench.datarest;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Properties;

import bench.datarest.config.DatabaseUrl;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
@ConfigurationPropertiesScan
public class Application {

	public static final String STACK = "java-spring-data-rest";

	private static final int CONNECT_TIMEOUT_SECONDS = 5;

	/** Set when the start failed, so that the exit keeps its non-zero status. */
	private static volatile boolean startFailed;

	public static void main(String[] args) {
		checkDatabase();
		// On SIGTERM, Spring Boot's shutdown hook closes the context: Tomcat stops accepting and
		// drains in-flight requests (server.shutdown=graceful), then the pool closes. Spring runs its
		// shutdown handlers once every context has closed; this one reports that clean exit as
		// status 0, where a JVM ended by a signal would report 143.
		SpringApplication.getShutdownHandlers().add(() -> {
			if (!startFailed) {
				Runtime.getRuntime().halt(0);
			}
		});
		try {
			SpringApplication.run(Application.class, args);
		}
		catch (RuntimeException ex) {
			startFailed = true;
			throw ex;
		}
	}

	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

	/**
	 * Fails in one line, before Spring starts, when DATABASE_URL is missing, malformed or names a
	 * database that does not answer; Spring's own start-up failure report is a page of stack trace.
	 */
	private static void checkDatabase() {
		String value = System.getenv(DatabaseUrl.VARIABLE);
		if (value == null || value.isBlank()) {
			fail(DatabaseUrl.VARIABLE + " is not set (expected postgres://user:password@host:port/database)");
		}
		DatabaseUrl url;
		try {
			url = DatabaseUrl.parse(value);
		}
		catch (IllegalArgumentException ex) {
			fail(ex.getMessage());
			return;
		}
		Properties properties = new Properties();
		if (url.username() != null) {
			properties.setProperty("user", url.username());
		}
		if (url.password() != null) {
			properties.setProperty("password", url.password());
		}
		properties.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_SECONDS));
		try (Connection ignored = DriverManager.getConnection(url.jdbcUrl(), properties)) {
			// Reachable: HikariCP opens the pool's own connections when the context starts.
		}
		catch (SQLException ex) {
			fail("cannot connect to the database at " + url.displayName() + ": " + ex.getMessage());
		}
	}

	private static void fail(String message) {
		System.err.println(STACK + ": " + message.replaceAll("\\s*\\R\\s*", " "));
		System.exit(1);
	}

}
