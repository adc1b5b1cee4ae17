package bench.spring.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DatabaseUrlTest {

	@Test
	void derivesTheJdbcUrlAndKeepsCredentialsOutOfIt() {
		DatabaseUrl url = DatabaseUrl.parse("postgres://bench:s%40cret@127.0.0.1:55432/bench_db?sslmode=disable");
		assertThat(url.getJdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:55432/bench_db?sslmode=disable");
		assertThat(url.getUsername()).isEqualTo("bench");
		assertThat(url.getPassword()).isEqualTo("s@cret");
		assertThat(url.displayName()).isEqualTo("127.0.0.1:55432/bench_db");
		assertThat(url.getDriverClassName()).isEqualTo("org.postgresql.Driver");
	}

	@Test
	void defaultsThePortAndAcceptsThePostgresqlScheme() {
		DatabaseUrl url = DatabaseUrl.parse("postgresql://db.internal/app");
		assertThat(url.getJdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:5432/app");
		assertThat(url.getUsername()).isNull();
		assertThat(url.getPassword()).isNull();
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
