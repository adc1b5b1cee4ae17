package bench.webflux.system;

import java.util.HashSet;
import java.util.Set;

import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static bench.webflux.Problems.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;

@WebFluxTest({ AvatarController.class, HealthController.class })
@Import(R2dbcDatabasePing.class)
@EnableConfigurationProperties(AvatarProperties.class)
@TestPropertySource(properties = { "AVATAR_BASE_URL=https://pics.test/", "AVATAR_COUNT=3" })
class SystemControllerTest {

	@Autowired
	private WebTestClient client;

	@Test
	void avatarIsABare302ToOneOfThePictures() {
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < 200; i++) {
			this.client.get().uri("/avatar").exchange()
				.expectStatus().isFound()
				.expectBody().isEmpty()
				.getResponseHeaders()
				.getValuesAsList("Location")
				.forEach(seen::add);
		}
		assertThat(seen).containsExactlyInAnyOrder("https://pics.test/Renard-1.png", "https://pics.test/Renard-2.png",
				"https://pics.test/Renard-3.png");
	}

	@Test
	void healthIs503ProblemWhenTheDatabaseIsDown() {
		problem(this.client.get().uri("/health").exchange(), 503).jsonPath("$.detail")
			.isEqualTo("the database is unreachable");
	}

	@TestConfiguration
	static class UnreachableDatabase {

		/** A client whose every connection is refused, as the driver refuses one. */
		@Bean
		DatabaseClient databaseClient() {
			ConnectionFactory refusing = mock(ConnectionFactory.class);
			given(refusing.getMetadata()).willReturn(() -> "PostgreSQL");
			doReturn(Mono.error(new R2dbcNonTransientResourceException("Cannot connect to localhost/127.0.0.1:5432")))
				.when(refusing).create();
			return DatabaseClient.create(refusing);
		}

	}

}
