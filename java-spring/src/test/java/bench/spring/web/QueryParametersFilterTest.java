package bench.spring.web;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class QueryParametersFilterTest {

	@Test
	void pairsAreDecodedInOrderAndNamesMayRepeat() {
		assertThat(QueryParametersFilter.parse("page=1&size=20&page=2&%C3%9C=a+b%2Bc&flag")).containsExactly(
				entry("page", new String[] { "1", "2" }), entry("size", new String[] { "20" }),
				entry("Ü", new String[] { "a b+c" }), entry("flag", new String[] { "" }));
	}

	@Test
	void whatTomcatRefusesIsReadAsWellAsItCanBe() {
		Map<String, String[]> parameters = QueryParametersFilter.parse("=3&&=&x=%zz&y=%FF&z=%&w=%4&size=2&");
		assertThat(parameters).containsEntry("", new String[] { "3", "" })
			.containsEntry("x", new String[] { "%zz" })
			.containsEntry("y", new String[] { "\uFFFD" })
			.containsEntry("z", new String[] { "%" })
			.containsEntry("w", new String[] { "%4" })
			.containsEntry("size", new String[] { "2" })
			.hasSize(6);
		assertThat(QueryParametersFilter.parse(null)).isEmpty();
		assertThat(QueryParametersFilter.parse("")).isEmpty();
	}

}
