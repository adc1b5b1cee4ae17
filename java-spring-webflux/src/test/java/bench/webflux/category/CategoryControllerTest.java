package bench.webflux.category;

import java.time.Instant;

import bench.webflux.error.StillReferencedException;
import bench.webflux.web.RequestBodies;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.reactive.server.WebTestClient;

import static bench.webflux.Problems.problem;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;

@WebFluxTest(CategoryController.class)
@Import(RequestBodies.class)
class CategoryControllerTest {

	@Autowired
	private WebTestClient client;

	@MockitoBean
	private CategoryService categories;

	@Test
	void lengthsCountCodePointsAndStringsAreStoredAsGiven() {
		String code = "😀".repeat(32);
		given(this.categories.create(new CategoryRequest(code, " padded "))).willReturn(
				Mono.just(new CategoryResponse(2001, code, " padded ", Instant.parse("2026-05-01T12:00:00.123456Z"))));
		postJson("/categories", "{\"code\": \"" + code + "\", \"name\": \" padded \", \"id\": 5, \"extra\": true}")
			.expectStatus().isCreated()
			.expectHeader().location("/categories/2001")
			.expectBody()
			.jsonPath("$.name").isEqualTo(" padded ")
			.jsonPath("$.updatedAt").isEqualTo("2026-05-01T12:00:00.123456Z");

		problem(postJson("/categories", "{\"code\": \"" + code + "😀\", \"name\": \"n\"}"), 422)
			.jsonPath("$.errors[0].field").isEqualTo("code");
	}

	@Test
	void blankMeansOnlySpacesTabsAndLineBreaks() {
		problem(postJson("/categories", "{\"code\": \" \\t\\r\\n\", \"name\": null}"), 422)
			.jsonPath("$.errors.length()").isEqualTo(2);
		verifyNoInteractions(this.categories);
	}

	@Test
	void anInvalidBodyComesBeforeAnAbsentCategory() {
		problem(this.client.put().uri("/categories/999999").contentType(MediaType.APPLICATION_JSON).bodyValue("{}")
			.exchange(), 422);
		verifyNoInteractions(this.categories);
	}

	@Test
	void aCategoryWithItemsCannotBeDeleted() {
		given(this.categories.delete(3)).willReturn(Mono.error(new StillReferencedException("category 3 still has items")));
		problem(this.client.delete().uri("/categories/3").exchange(), 409).jsonPath("$.detail")
			.isEqualTo("category 3 still has items");
	}

	@Test
	void deleteAnswers204WithoutABody() {
		given(this.categories.delete(4)).willReturn(Mono.empty());
		this.client.delete().uri("/categories/4").exchange().expectStatus().isNoContent().expectBody().isEmpty();
	}

	@Test
	void wrongMethodIs405WithAllow() {
		problem(this.client.delete().uri("/categories").exchange(), 405);
		problem(this.client.post().uri("/categories/1").exchange(), 405);
	}

	private WebTestClient.ResponseSpec postJson(String path, String body) {
		return this.client.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
	}

}
