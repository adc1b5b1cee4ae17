package bench.webflux.system;

import bench.webflux.error.ServiceUnavailableException;
import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class HealthController {

	private final DatabasePing database;

	HealthController(DatabasePing database) {
		this.database = database;
	}

	/** UP once PostgreSQL has answered {@code SELECT 1} on a pooled connection; any failure is a 503. */
	@GetMapping("/health")
	Mono<Health> health() {
		return this.database.selectOne()
			.then(Mono.fromSupplier(() -> new Health("UP")))
			.onErrorMap(ex -> new ServiceUnavailableException("the database is unreachable", ex));
	}

	record Health(String status) {
	}

}
