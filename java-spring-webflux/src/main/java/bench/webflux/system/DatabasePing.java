package bench.webflux.system;

import reactor.core.publisher.Mono;

/**
 * The health check's question to PostgreSQL, {@code SELECT 1} on a pooled connection: over R2DBC
 * ({@link R2dbcDatabasePing}), or over JDBC in the variant jdbc-bounded-elastic (bench.webflux.jdbc).
 */
public interface DatabasePing {

	/** Completes when PostgreSQL has answered; fails with whatever kept it from answering. */
	Mono<Void> selectOne();

}
