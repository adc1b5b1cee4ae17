package bench.spring.category;

import java.time.Instant;

import bench.spring.error.StillReferencedException;
import bench.spring.web.RequestBodies;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(CategoryController.class)
@Import(RequestBodies.class)
class CategoryControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private CategoryService categories;

	@Test
	void lengthsCountCodePointsAndStringsAreStoredAsGiven() throws Exception {
		String code = "😀".repeat(32);
		given(this.categories.create(new CategoryRequest(code, " padded "))).willReturn(
				new CategoryResponse(2001, code, " padded ", Instant.parse("2026-05-01T12:00:00.123456Z")));
		postJson("/categories", "{\"code\": \"" + code + "\", \"name\": \" padded \", \"id\": 5, \"extra\": true}")
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", "/categories/2001"))
			.andExpect(jsonPath("$.name").value(" padded "))
			.andExpect(jsonPath("$.updatedAt").value("2026-05-01T12:00:00.123456Z"));

		postJson("/categories", "{\"code\": \"" + code + "😀\", \"name\": \"n\"}")
			.andExpect(status().is(422))
			.andExpect(jsonPath("$.errors[0].field").value("code"));
	}

	@Test
	void blankMeansOnlySpacesTabsAndLineBreaks() throws Exception {
		postJson("/categories", "{\"code\": \" \\t\\r\\n\", \"name\": null}")
			.andExpect(status().is(422))
			.andExpect(jsonPath("$.errors.length()").value(2));
		verifyNoInteractions(this.categories);
	}

	@Test
	void anInvalidBodyComesBeforeAnAbsentCategory() throws Exception {
		this.mvc.perform(put("/categories/999999").contentType(MediaType.APPLICATION_JSON).content("{}"))
			.andExpect(status().is(422))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
		verifyNoInteractions(this.categories);
	}

	@Test
	void aCategoryWithItemsCannotBeDeleted() throws Exception {
		willThrow(new StillReferencedException("category 3 still has items")).given(this.categories).delete(3);
		this.mvc.perform(delete("/categories/3"))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.detail").value("category 3 still has items"));
	}

	@Test
	void deleteAnswers204WithoutABody() throws Exception {
		this.mvc.perform(delete("/categories/4")).andExpect(status().isNoContent()).andExpect(content().string(""));
	}

	private ResultActions postJson(String path, String body) throws Exception {
		return this.mvc.perform(post(path).contentType(MediaType.APPLICATION_JSON).content(body));
	}

}
