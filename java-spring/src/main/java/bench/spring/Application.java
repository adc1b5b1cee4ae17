package bench.spring;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Properties;

import bench.spring.config.DatabaseUrl;
import bench.spring.stock.StockUrl;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
@ConfigurationPropertiesScan
public class Application {

	public static final String STACK = "java-spring";

	private static final int CONNECT_TIMEOUT_SECONDS = 5;

	public static void main(String[] args) {
		checkStockUrl();
		if (!trainingStopsAtRefresh()) {
			checkDatabase();
		}
		SpringApplication.run(Application.class, args);
	}

	/**
	 * Spring Boot's training run for an AOT cache, {@code -Dspring.context.exit=onRefresh}, which
	 * the Dockerfile's target aot-cache runs where there is no database: it ends before the pool
	 * opens a connection, and Spring Boot's documentation asks a training run to reach no remote
	 * service, so the check that the database answers is not made.
	 */
	private static boolean trainingStopsAtRefresh() {
		return "onRefresh".equals(System.getProperty("spring.context.exit"));
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
		if (url.getUsername() != null) {
			properties.setProperty("user", url.getUsername());
		}
		if (url.getPassword() != null) {
			properties.setProperty("password", url.getPassword());
		}
		properties.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_SECONDS));
		try (Connection _ = DriverManager.getConnection(url.getJdbcUrl(), properties)) {
			// Reachable: HikariCP opens the pool's own connections when the context starts.
		}
		catch (SQLException ex) {
			fail("cannot connect to the database at " + url.displayName() + ": " + ex.getMessage());
		}
	}

	/** A STOCK_URL that is set but is no http URL fails like a malformed DATABASE_URL: in one line. */
	private static void checkStockUrl() {
		String value = System.getenv(StockUrl.VARIABLE);
		if (value == null) {
			return; // application.properties names the default
		}
		try {
			StockUrl.parse(value);
		}
		catch (IllegalArgumentException ex) {
			fail(ex.getMessage());
		}
	}

	private static void fail(String message) {
		System.err.println(STACK + ": " + message.replaceAll("\\s*\\R\\s*", " "));
		System.exit(1);
	}

}
