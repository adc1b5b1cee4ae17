package bench.webflux.system;

import bench.webflux.jdbc.JdbcConfiguration;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Profile;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;

@Component
@Profile("!" + JdbcConfiguration.PROFILE)
class R2dbcDatabasePing implements DatabasePing {

	private final DatabaseClient database;

	R2dbcDatabasePing(DatabaseClient database) {
		this.database = database;
	}

	@Override
	public Mono<Void> selectOne() {
		return this.database.sql("SELECT 1").map(row -> row.get(0)).one().then();
	}

}
