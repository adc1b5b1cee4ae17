package bench.datarest.config;

import bench.datarest.Application;
import com.zaxxer.hikari.HikariDataSource;
import org.apache.catalina.util.ServerInfo;
import org.hibernate.Version;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.data.rest.webmvc.RepositoryRestController;
import org.springframework.stereotype.Component;

/** The one start-up line on stdout: stack, versions, address, pool size and thread model. */
@Component
class StartupReport {

	private final HikariDataSource dataSource;

	private final Environment environment;

	StartupReport(HikariDataSource dataSource, Environment environment) {
		this.dataSource = dataSource;
		this.environment = environment;
	}

	@EventListener
	void onReady(ApplicationReadyEvent event) {
		if (!(event.getApplicationContext() instanceof WebServerApplicationContext context)) {
			return; // no server to report (the tests' mock environment)
		}
		int port = context.getWebServer().getPort();
		boolean virtualThreads = this.environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false);
		String dataRest = RepositoryRestController.class.getPackage().getImplementationVersion();
		System.out.printf("%s: Spring Boot %s (Spring Data REST %s on %s, Hibernate %s, Java %s) listening on %s:%d,"
				+ " pool size %d, %s threads%n", Application.STACK, SpringBootVersion.getVersion(),
				dataRest == null ? "?" : dataRest, ServerInfo.getServerInfo(), Version.getVersionString(),
				Runtime.version(), this.environment.getProperty("server.address", "0.0.0.0"), port,
				this.dataSource.getMaximumPoolSize(), virtualThreads ? "virtual" : "platform");
	}

}
