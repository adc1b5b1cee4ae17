package bench.datarest.web;

import java.nio.charset.StandardCharsets;

import bench.datarest.HalTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;
import org.springframework.web.servlet.HandlerExceptionResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bound on the bodies read at once, on a filter of its own with 64 bytes of room (the
 * application's is 8 MiB) and the application's error map.
 */
@HalTest
class BodySizeLimitFilterTest {

	/** 78 bytes: more than the room there is. */
	private static final String LARGE = """
			{"sku": "SKU-X", "name": "Thing", "price": 1.230, "stock": 3, "categoryId": 7}""";

	/** 41 bytes: two of them at once would not fit. */
	private static final String SMALL = """
			{"sku": "SKU-X", "name": "Thing", "x": 1}""";

	@Autowired
	@Qualifier("handlerExceptionResolver")
	private HandlerExceptionResolver errors;

	@Test
	void aBodyThatFindsNoRoomIsA503ProblemBeforeAByteOfItIsRead() throws Exception {
		BodySizeLimitFilter filter = new BodySizeLimitFilter(DataSize.ofBytes(64), this.errors);
		MockFilterChain chain = new MockFilterChain();
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(post(LARGE), response, chain);
		assertThat(chain.getRequest()).isNull();
		assertThat(response.getStatus()).isEqualTo(503);
		assertThat(response.getContentType()).isEqualTo("application/problem+json");
		assertThat(response.getContentAsString()).contains("\"type\" : \"about:blank\"")
			.contains("\"title\" : \"Service Unavailable\"")
			.contains("\"status\" : 503")
			.contains("\"detail\" : \"the server is busy, try again shortly\"");
	}

	@Test
	void theRoomIsGivenBackWhenTheRequestEnds() throws Exception {
		BodySizeLimitFilter filter = new BodySizeLimitFilter(DataSize.ofBytes(64), this.errors);
		for (int i = 0; i < 3; i++) {
			MockFilterChain chain = new MockFilterChain();
			filter.doFilter(post(SMALL), new MockHttpServletResponse(), chain);
			assertThat(chain.getRequest()).isNotNull();
		}
	}

	private static MockHttpServletRequest post(String body) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/items");
		request.setContentType("application/json");
		request.setContent(body.getBytes(StandardCharsets.UTF_8));
		return request;
	}

}
