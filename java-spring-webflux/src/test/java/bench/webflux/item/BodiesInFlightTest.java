package bench.webflux.item;

import bench.webflux.web.RequestBodies;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.reactive.server.WebTestClient;

import static bench.webflux.Problems.problem;
import static org.mockito.Mockito.verifyNoInteractions;

/** The bound on the request bodies read at once, here 64 bytes of room: one small body fits, two do not. */
@WebFluxTest(ItemController.class)
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
	private WebTestClient client;

	@MockitoBean
	private ItemService items;

	@Test
	void aBodyThatFindsNoRoomIs503AndTheConnectionIsClosed() {
		problem(postJson(VALID).expectHeader().valueEquals(HttpHeaders.CONNECTION, "close"), 503)
			.jsonPath("$.detail").isEqualTo("the server is busy, try again shortly");
		verifyNoInteractions(this.items);
	}

	@Test
	void theRoomIsGivenBackWhenTheExchangeEnds() {
		for (int i = 0; i < 3; i++) {
			postJson(SMALL).expectStatus().isEqualTo(422);
		}
	}

	@Test
	void theRouteMethodAndContentTypeAnswerFirst() {
		this.client.patch().uri("/items").contentType(MediaType.APPLICATION_JSON).bodyValue(VALID).exchange()
			.expectStatus().isEqualTo(405);
		this.client.post().uri("/items").contentType(MediaType.TEXT_PLAIN).bodyValue(VALID).exchange()
			.expectStatus().isEqualTo(415);
	}

	private WebTestClient.ResponseSpec postJson(String body) {
		return this.client.post().uri("/items").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
	}

}
