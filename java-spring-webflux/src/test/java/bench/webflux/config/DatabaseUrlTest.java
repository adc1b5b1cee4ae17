package bench.webflux.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DatabaseUrlTest {

	@Test
	void derivesTheR2dbcUrlAndKeepsCredentialsOutOfIt() {
		DatabaseUrl url = DatabaseUrl.parse("postgres://bench:s%40cret@127.0.0.1:55432/bench_db?sslmode=disable");
		assertThat(url.r2dbcUrl()).isEqualTo("r2dbc:postgresql://127.0.0.1:55432/bench_db?sslmode=disable");
		assertThat(url.username()).isEqualTo("bench");
		assertThat(url.password()).isEqualTo("s@cret");
		assertThat(url.displayName()).isEqualTo("127.0.0.1:55432/bench_db");
		assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:55432/bench_db?sslmode=disable");
	}

	@Test
	void defaultsThePortAndAcceptsThePostgresqlScheme() {
		DatabaseUrl url = DatabaseUrl.parse("postgresql://db.internal/app");
		assertThat(url.r2dbcUrl()).isEqualTo("r2dbc:postgresql://db.internal:5432/app");
		assertThat(url.username()).isNull();
		assertThat(url.password()).isNull();
	}

	@Test
	void rejectsWhatIsNotAPostgresUrl() {
		assertThatIllegalArgumentException().isThrownBy(() -> DatabaseUrl.parse("mysql://h/db"))
			.withMessageContaining("postgres://");
		assertThatIllegalArgumentException().isThrownBy(() -> DatabaseUrl.parse("postgres://h:5432/"))
			.withMessageContaining("no database");
		assertThatIllegalArgumentException().isThrownBy(() -> DatabaseUrl.parse("postgres://h:5432 /db"))
			.withMessageContaining("not a URL");
	}

}
