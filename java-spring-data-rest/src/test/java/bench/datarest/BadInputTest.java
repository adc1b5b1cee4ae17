package bench.datarest;

import java.net.URI;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.MockMvc;

import static org.hamcrest.Matchers.matchesPattern;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Input Spring Data REST would answer with a 500, answered as the 4xx it is by this stack's four
 * additions (error/UnreadableInputHandler, web/BodyContentTypeFilter, web/UriListConverter); and
 * the two plain controllers.
 */
@HalTest
class BadInputTest {

	@Autowired
	MockMvc mvc;

	@ParameterizedTest
	@ValueSource(strings = { "/items/abc", "/items/1.5", "/items/99999999999999999999", "/categories/abc",
			"/items/abc/category", "/items/search/byCategory?categoryId=abc", "/items?page=2147483647&size=100",
			"/categories?page=1073741824&size=2", "/categories?page=2147483647&size=1",
			"/items/search/byCategory?categoryId=1&page=2147483647&size=1" })
	void unreadableParametersAre400(String path) throws Exception {
		this.mvc.perform(get(path)).andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").isString());
	}

	@ParameterizedTest
	@ValueSource(strings = { "/items/%20", "/categories/%09", "/items/%1E/category", "/items/%1F/category" })
	void aPathIdOfOnlyWhitespaceIs400(String uri) throws Exception {
		this.mvc.perform(get(URI.create(uri))).andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").isString());
		this.mvc.perform(delete(URI.create(uri.replace("/category", "")))).andExpect(status().isBadRequest());
	}

	@ParameterizedTest
	@ValueSource(strings = { "/items/search/byCategory?%20=1", "/items/search/byCategory?categoryId=1&%20=1",
			"/items/search/byCategory?%1D=x&categoryId=1" })
	void aSearchParameterNamedOnlyWhitespaceIs400(String uri) throws Exception {
		this.mvc.perform(get(URI.create(uri))).andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").isString());
	}

	@ParameterizedTest
	@ValueSource(strings = { "/items?sort=a%25", "/items?sort=%25", "/categories?sort=a%25",
			"/items/search/byCategory?categoryId=1&sort=a%25", "/items?sort=price%2Cdesc%25" })
	void aSortValueHoldingAPercentSignIs400(String uri) throws Exception {
		this.mvc.perform(get(URI.create(uri))).andExpect(status().isBadRequest()).andExpect(jsonPath("$.message").isString());
	}

	@ParameterizedTest
	@ValueSource(strings = { "*/*", "application/*", ";;", "no/such; =", "application/json; charset=nope" })
	void aBodyWhoseTypeIsNotOneConcreteMediaTypeIs415(String contentType) throws Exception {
		this.mvc.perform(post("/categories").header("Content-Type", contentType).content("{\"code\":\"X\",\"name\":\"n\"}"))
			.andExpect(status().isUnsupportedMediaType())
			.andExpect(jsonPath("$.message").isString());
	}

	@Test
	void aBodyOfAnotherConcreteTypeIsSpringDataRestsOwn400() throws Exception {
		this.mvc.perform(post("/categories").contentType("text/plain").content("{\"code\":\"X\",\"name\":\"n\"}"))
			.andExpect(status().isBadRequest());
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "\n", "\r\n\r\n", "# nothing", "/categories/1\r\n\r\n/categories/2", "garbage",
			"{", "a{b", "/categories/{id}", "/categories/1{", "\uD88C\uDC5E{\uD866\uDF02", "/categories/", "/", "http://host" })
	void oddUriListsAre400(String body) throws Exception {
		this.mvc.perform(put("/items/3/category").contentType("text/uri-list").content(body))
			.andExpect(status().isBadRequest());
		this.mvc.perform(get("/items/3?projection=inlineCategory")).andExpect(jsonPath("$.category.id").value(3));
	}

	@Test
	void avatarIsABare302() throws Exception {
		this.mvc.perform(get("/avatar"))
			.andExpect(status().isFound())
			.andExpect(header().string("Location", matchesPattern("https://avatar\\.example\\.com/Renard-([1-9]|1[0-9]|2[01])\\.png")))
			.andExpect(content().string(""));
	}

	@Test
	void healthIsUp() throws Exception {
		this.mvc.perform(get("/health"))
			.andExpect(status().isOk())
			.andExpect(content().json("{\"status\":\"UP\"}", JsonCompareMode.STRICT));
	}

}
