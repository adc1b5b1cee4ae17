package bench.spring.config;

import bench.spring.Application;
import com.zaxxer.hikari.HikariDataSource;
import org.apache.catalina.util.ServerInfo;
import org.hibernate.Version;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The one start-up line on stdout: stack, versions, address, pool size, thread model and the
 * active profiles, if any (a variant of impl.toml may select one).
 */
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
		int port = ((WebServerApplicationContext) event.getApplicationContext()).getWebServer().getPort();
		boolean virtualThreads = this.environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false);
		String[] profiles = this.environment.getActiveProfiles();
		System.out.printf("%s: Spring Boot %s (Spring MVC on %s, Hibernate %s, Java %s) listening on %s:%d,"
				+ " pool size %d, %s threads%s%n", Application.STACK, SpringBootVersion.getVersion(),
				ServerInfo.getServerInfo(), Version.getVersionString(), Runtime.version(),
				this.environment.getProperty("server.address", "0.0.0.0"), port, this.dataSource.getMaximumPoolSize(),
				virtualThreads ? "virtual" : "platform",
				(profiles.length == 0) ? "" : ", profile " + String.join(", ", profiles));
	}

}
