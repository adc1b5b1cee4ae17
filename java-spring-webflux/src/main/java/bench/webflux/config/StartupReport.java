package bench.webflux.config;

import bench.webflux.Application;
import bench.webflux.jdbc.JdbcConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.SpringVersion;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** The one start-up line on stdout: stack, versions, address, pool size and stock upstream. */
@Component
class StartupReport {

	private final DatabaseProperties database;

	private final Environment environment;

	StartupReport(DatabaseProperties database, Environment environment) {
		this.database = database;
		this.environment = environment;
	}

	@EventListener
	void onReady(ApplicationReadyEvent event) {
		int port = ((WebServerApplicationContext) event.getApplicationContext()).getWebServer().getPort();
		String dataAccess = this.environment.matchesProfiles(JdbcConfiguration.PROFILE)
				? "JdbcClient on HikariCP and PgJDBC, on Reactor's boundedElastic"
				: "r2dbc-postgresql " + version(PostgresqlConnectionFactory.class);
		System.out.printf("%s: Spring Boot %s (Spring WebFlux %s on Reactor Netty %s, %s, Java %s) listening on %s:%d,"
				+ " pool size %d, stock upstream %s%n", Application.STACK, SpringBootVersion.getVersion(),
				SpringVersion.getVersion(), version(HttpServer.class), dataAccess, Runtime.version(),
				this.environment.getProperty("server.address", "0.0.0.0"), port, this.database.poolSize(),
				StockUrl.parse(this.environment.getProperty("app.stock.url")).baseUrl());
	}

	private static String version(Class<?> type) {
		String version = type.getPackage().getImplementationVersion();
		return version != null ? version : "(unknown version)";
	}

}
