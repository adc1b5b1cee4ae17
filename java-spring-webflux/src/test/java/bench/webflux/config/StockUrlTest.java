package bench.webflux.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StockUrlTest {

	@ParameterizedTest
	@CsvSource({
			"http://127.0.0.1:8099, http://127.0.0.1:8099",
			"http://127.0.0.1:8099/, http://127.0.0.1:8099",
			"' http://upstream:80 ', http://upstream:80",
			"HTTP://upstream, HTTP://upstream",
			"https://stock.internal:8443/, https://stock.internal:8443",
	})
	void takesAnHttpBaseUrlWithOneTrailingSlashAtMost(String value, String baseUrl) {
		assertThat(StockUrl.parse(value).baseUrl()).isEqualTo(baseUrl);
	}

	@ParameterizedTest
	@NullSource
	@ValueSource(strings = { "", "  " })
	void unsetIsTheDefaultUpstream(String value) {
		assertThat(StockUrl.parse(value).baseUrl()).isEqualTo("http://127.0.0.1:8099");
	}

	@ParameterizedTest
	@ValueSource(strings = { "127.0.0.1:8099", "localhost:8099", "ftp://host", "postgres://h/db", "http://", "http:// x",
			"http://host:8099?x=1", "not a url" })
	void refusesWhatIsNotAnHttpUrl(String value) {
		assertThatIllegalArgumentException().isThrownBy(() -> StockUrl.parse(value))
			.withMessageStartingWith("STOCK_URL=")
			.withMessageContaining("is not an http URL");
	}

}
