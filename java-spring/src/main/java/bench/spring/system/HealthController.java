package bench.spring.system;

import bench.spring.error.ServiceUnavailableException;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class HealthController {

	private final JdbcClient jdbc;

	HealthController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/health")
	Health health() {
		try {
			this.jdbc.sql("SELECT 1").query(Integer.class).single();
		}
		catch (DataAccessException ex) {
			throw new ServiceUnavailableException("the database is unreachable", ex);
		}
		return new Health("UP");
	}

	record Health(String status) {
	}

}
