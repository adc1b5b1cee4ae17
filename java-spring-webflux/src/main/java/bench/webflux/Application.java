package bench.webflux;

import java.time.Clock;
import java.time.Duration;

import bench.webflux.config.DatabaseConfiguration;
import bench.webflux.config.DatabaseUrl;
import bench.webflux.config.StockUrl;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ValidationDepth;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
@ConfigurationPropertiesScan
public class Application {

	public static final String STACK = "java-spring-webflux";

	/**
	 * How long the start-up check waits for its one connection. The driver bounds the connect
	 * itself; this wait also covers a cold JVM's first use of Netty, Reactor and the driver,
	 * which took more than 6 s (the wait it had) in a CI run on a busy 2-core machine.
	 */
	private static final Duration FIRST_CONNECTION_WAIT = Duration.ofSeconds(30);

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
	 * Blocking is fine here: this is the main thread, before any event loop serves a request.
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
		try {
			Boolean valid = Mono
				.usingWhen(DatabaseConfiguration.connectionFactory(url).create(),
						connection -> Mono.from(connection.validate(ValidationDepth.REMOTE)), Connection::close)
				.block(FIRST_CONNECTION_WAIT);
			if (!Boolean.TRUE.equals(valid)) {
				fail("cannot connect to the database at " + url.displayName() + ": it did not answer");
			}
		}
		catch (RuntimeException ex) {
			fail("cannot connect to the database at " + url.displayName() + ": " + message(ex));
		}
	}

	/** A STOCK_URL that is not an http URL fails in one line too; unset, it is the default upstream. */
	private static void checkStockUrl() {
		try {
			StockUrl.parse(System.getenv(StockUrl.VARIABLE));
		}
		catch (IllegalArgumentException ex) {
			fail(ex.getMessage());
		}
	}

	/** The driver's words, and those of the cause underneath when they add to them ("Connection refused"). */
	private static String message(Throwable error) {
		Throwable root = error;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName();
		if (root != error && root.getMessage() != null && !message.contains(root.getMessage())) {
			message += " (" + root.getMessage() + ")";
		}
		return message;
	}

	private static void fail(String message) {
		System.err.println(STACK + ": " + message.replaceAll("\\s*\\R\\s*", " "));
		System.exit(1);
	}

}
