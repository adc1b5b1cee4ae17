package bench.datarest.error;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.orm.jpa.JpaSystemException;
import org.springframework.transaction.CannotCreateTransactionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnavailableHandlerTest {

	private final UnavailableHandler handler = new UnavailableHandler();

	@Test
	void anOutageIsA503Problem() throws Exception {
		var timeout = new CannotCreateTransactionException("no connection",
				new SQLTransientConnectionException("bench - Connection is not available, request timed out after 5000ms"));
		ResponseEntity<ProblemDetail> response = this.handler.unavailable(timeout);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(response.getBody().getType()).hasToString("about:blank");
		assertThat(response.getBody().getTitle()).isEqualTo("Service Unavailable");
		assertThat(response.getBody().getDetail()).isEqualTo("the database is unavailable");
	}

	@Test
	void anyOtherDatabaseErrorGoesOnAsItIs() {
		var internal = new JpaSystemException(new RuntimeException(new SQLException("internal", "XX000")));
		assertThatThrownBy(() -> this.handler.unavailable(internal)).isSameAs(internal);
	}

}
