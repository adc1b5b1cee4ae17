package bench.datarest.web;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class BodyContentTypeFilterTest {

	@ParameterizedTest
	@ValueSource(strings = { "application/json", "application/json; charset=utf-8", "application/hal+json", "text/plain",
			"multipart/form-data; boundary=x", "application/json; charset" })
	void oneConcreteMediaTypeGoesOn(String contentType) {
		assertThat(BodyContentTypeFilter.isConcrete(contentType)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "*/*", "application/*", "*/json", ";;", "no/such; =", "application/json; charset=nope", "" })
	void anythingElseIsRefused(String contentType) {
		assertThat(BodyContentTypeFilter.isConcrete(contentType)).isFalse();
	}

}
