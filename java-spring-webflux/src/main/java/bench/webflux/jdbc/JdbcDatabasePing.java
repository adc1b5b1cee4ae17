package bench.webflux.jdbc;

import bench.webflux.system.DatabasePing;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The health check's {@code SELECT 1} over JDBC, on boundedElastic. */
@Component
@Profile(JdbcConfiguration.PROFILE)
class JdbcDatabasePing implements DatabasePing {

	private final JdbcClient jdbc;

	JdbcDatabasePing(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Mono<Void> selectOne() {
		return BoundedElastic.call(() -> this.jdbc.sql("SELECT 1").query(Integer.class).single()).then();
	}

}
