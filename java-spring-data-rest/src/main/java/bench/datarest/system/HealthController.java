package bench.datarest.system;

import java.util.Map;

import bench.datarest.error.DatabaseErrors;

import org.springframework.dao.DataAccessException;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /health}: {@code SELECT 1} on a pooled connection. Not a repository operation, so a
 * plain controller (README.md, "Notable choices").
 */
@RestController
class HealthController {

	private final JdbcClient jdbc;

	HealthController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/health")
	ResponseEntity<?> health() {
		try {
			this.jdbc.sql("SELECT 1").query(Integer.class).single();
		}
		catch (DataAccessException ex) {
			return DatabaseErrors.unavailable("the database is unreachable");
		}
		return ResponseEntity.ok(Map.of("status", "UP"));
	}

}
