package bench.webflux.config;

import java.time.Duration;
import java.util.function.BiPredicate;

import bench.webflux.Application;
import bench.webflux.jdbc.JdbcConfiguration;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import io.r2dbc.spi.Option;
import io.r2dbc.spi.ValidationDepth;
import reactor.core.publisher.Mono;
import reactor.pool.PooledRefMetadata;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The r2dbc-pool over r2dbc-postgresql, built here rather than by Spring Boot's auto-configuration
 * because its {@code spring.r2dbc.pool.*} properties cannot say two things the API needs:
 * <ul>
 * <li>no broken connection is ever handed out: an idle connection whose socket has closed (as
 * every one does when PostgreSQL restarts) is evicted when the pool looks at it, and the request
 * gets another idle one or a new one, instead of failing on it;</li>
 * <li>5 s is the longest a request waits for a connection: no acquire retry, since r2dbc-pool
 * retries the whole acquire, timeout included (Boot's default of one retry waits 10 s).</li>
 * </ul>
 * Boot's R2DBC auto-configuration backs off for this bean; Spring Data R2DBC uses it as it is. The
 * variant jdbc-bounded-elastic has no R2DBC pool: HikariCP instead ({@link JdbcConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
@Profile("!" + JdbcConfiguration.PROFILE)
public class DatabaseConfiguration {

	/** The longest wait for a pooled connection, and for opening one; then 503. */
	static final Duration MAX_ACQUIRE_TIME = Duration.ofSeconds(5);

	/** Connections opened under load are kept this long idle. */
	static final Duration MAX_IDLE_TIME = Duration.ofMinutes(10);

	private static final Option<String> APPLICATION_NAME = Option.valueOf("applicationName");

	@Bean(destroyMethod = "dispose")
	ConnectionPool connectionFactory(DatabaseProperties properties) {
		ConnectionPoolConfiguration configuration = ConnectionPoolConfiguration
			.builder(connectionFactory(DatabaseUrl.parse(properties.url())))
			.name("bench")
			// Opened on demand and then kept, as the other stacks' pools do.
			.initialSize(0)
			.maxSize(properties.poolSize())
			.maxAcquireTime(MAX_ACQUIRE_TIME)
			.acquireRetry(0)
			.maxCreateConnectionTime(MAX_ACQUIRE_TIME)
			.maxIdleTime(MAX_IDLE_TIME)
			// Also checked on every acquire (r2dbc-pool's own validation), after the eviction below.
			.validationDepth(ValidationDepth.LOCAL)
			.customizer(pool -> pool.evictionPredicate(idleTooLongOrClosed()))
			.build();
		return new ConnectionPool(configuration);
	}

	/** A connection to the database of {@code DATABASE_URL}, unpooled (the start-up check uses it too). */
	public static ConnectionFactory connectionFactory(DatabaseUrl url) {
		ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions.parse(url.r2dbcUrl())
			.mutate()
			.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, MAX_ACQUIRE_TIME)
			.option(APPLICATION_NAME, Application.STACK);
		if (url.username() != null) {
			options.option(ConnectionFactoryOptions.USER, url.username());
		}
		if (url.password() != null) {
			options.option(ConnectionFactoryOptions.PASSWORD, url.password());
		}
		return ConnectionFactories.get(options.build());
	}

	/**
	 * Replaces r2dbc-pool's own eviction predicate (idle time and life time; no life time is set
	 * here) and adds a closed connection. The pool tests it whenever it takes an idle connection
	 * for a request and whenever one comes back. r2dbc-postgresql answers a LOCAL validation at
	 * once (is the channel open?), so reading it never waits; a driver that answered later would
	 * count as open, and the pool's validation on acquire would still catch it.
	 */
	static BiPredicate<Connection, PooledRefMetadata> idleTooLongOrClosed() {
		long maxIdleMillis = MAX_IDLE_TIME.toMillis();
		return (connection, metadata) -> metadata.idleTime() >= maxIdleMillis
				|| !Mono.from(connection.validate(ValidationDepth.LOCAL)).toFuture().getNow(Boolean.TRUE);
	}

}
