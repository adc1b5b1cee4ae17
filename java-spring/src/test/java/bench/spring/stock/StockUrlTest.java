package bench.spring.stock;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class StockUrlTest {

	@ParameterizedTest
	@CsvSource({ "http://127.0.0.1:8099, http://127.0.0.1:8099", "http://127.0.0.1:8099/, http://127.0.0.1:8099",
			"HTTP://stock.internal, http://stock.internal", "https://[::1]:8443/, https://[::1]:8443" })
	void isTheSchemeAndAuthorityWithoutATrailingSlash(String value, String url) {
		assertThat(StockUrl.parse(value).toString()).isEqualTo(url);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "127.0.0.1:8099", "ftp://127.0.0.1", "http://", "http://h:1/stock", "http://h:1//",
			"http://h:1/?a=1", "http://h:1 /", "postgres://bench@h/bench" })
	void refusesWhatIsNotABaseHttpUrl(String value) {
		assertThatIllegalArgumentException().isThrownBy(() -> StockUrl.parse(value)).withMessageStartingWith("STOCK_URL ");
	}

}
