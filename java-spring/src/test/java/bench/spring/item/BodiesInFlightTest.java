package bench.spring.item;

import bench.spring.web.RequestBodies;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The bound on the request bodies read at once, here 64 bytes of room: one small body fits, two do not. */
@WebMvcTest(ItemController.class)
@Import(RequestBodies.class)
@TestPropertySource(properties = "app.request-bodies.in-flight=64B")
class BodiesInFlightTest {

	/** 78 bytes: more than the room there is. */
	private static final String VALID = """
			{"sku": "SKU-X", "name": "Thing", "price": 1.230, "stock": 3, "categoryId": 7}""";

	/** 41 bytes, missing fields: a 422 once read. Two of them at once would not fit. */
	private static final String SMALL = """
			{"sku": "SKU-X", "name": "Thing", "x": 1}""";

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private ItemService items;

	@Test
	void aBodyThatFindsNoRoomIs503BeforeAByteOfItIsRead() throws Exception {
		postJson(VALID).andExpect(status().isServiceUnavailable())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("about:blank"))
			.andExpect(jsonPath("$.title").value("Service Unavailable"))
			.andExpect(jsonPath("$.status").value(503))
			.andExpect(jsonPath("$.detail").value("the server is busy, try again shortly"));
		verifyNoInteractions(this.items);
	}

	@Test
	void theRoomIsGivenBackWhenTheRequestEnds() throws Exception {
		for (int i = 0; i < 3; i++) {
			postJson(SMALL).andExpect(status().isUnprocessableContent());
		}
	}

	@Test
	void theRouteMethodAndContentTypeAnswerFirst() throws Exception {
		this.mvc.perform(patch("/items").contentType(MediaType.APPLICATION_JSON).content(VALID))
			.andExpect(status().isMethodNotAllowed());
		this.mvc.perform(post("/items").contentType(MediaType.TEXT_PLAIN).content(VALID))
			.andExpect(status().isUnsupportedMediaType());
	}

	private ResultActions postJson(String body) throws Exception {
		return this.mvc.perform(post("/items").contentType(MediaType.APPLICATION_JSON).content(body));
	}

}
