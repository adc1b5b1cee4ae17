package bench.datarest;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A write cycle of its own rows (removed at the end), with the statuses of spec/hal.md: the 409s and
 * 400s come from PostgreSQL and Bean Validation through Spring Data REST.
 */
@HalTest
class WritesTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	@Autowired
	MockMvc mvc;

	@Test
	void createReplaceMoveAndDelete() throws Exception {
		String code = unique("W");
		JsonNode category = read(send(post("/categories"), "{\"code\":\"%s\",\"name\":\"Writes\"}".formatted(code))
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", org.hamcrest.Matchers.startsWith("http://localhost/categories/"))));
		long categoryId = category.get("id").asLong();
		JsonNode other = read(send(post("/categories"), "{\"code\":\"%s\",\"name\":\"Other\"}".formatted(unique("W")))
			.andExpect(status().isCreated()));
		long otherId = other.get("id").asLong();

		String sku = unique("S");
		String itemBody = "{\"sku\":\"%s\",\"name\":\"Item\",\"price\":1.230,\"stock\":3,\"description\":\"d\",\"category\":\"/categories/%d\",\"id\":1,\"updatedAt\":\"2000-01-01T00:00:00Z\"}";
		JsonNode item = read(send(post("/items"), itemBody.formatted(sku, categoryId)).andExpect(status().isCreated()));
		long itemId = item.get("id").asLong();
		this.mvc.perform(get("/items/" + itemId + "?projection=inlineCategory"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.price").value(1.23))
			.andExpect(jsonPath("$.updatedAt", not("2000-01-01T00:00:00Z")))
			.andExpect(jsonPath("$.category.code").value(code));
		this.mvc.perform(get("/items/1")).andExpect(jsonPath("$.sku").value("SKU-000001"));

		// taken keys: 409, Spring Data REST's message
		send(post("/items"), itemBody.formatted("SKU-000001", categoryId)).andExpect(status().isConflict())
			.andExpect(jsonPath("$.message").value("Could not commit changes!"));
		send(put("/categories/" + categoryId), "{\"code\":\"CAT-0001\",\"name\":\"x\"}").andExpect(status().isConflict());
		// broken field rules: 400, one entry per property
		send(post("/items"), "{\"sku\":\"\",\"price\":1.001,\"stock\":-1,\"category\":\"/categories/999999999\"}")
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.errors[*].property", containsInAnyOrder("sku", "name", "price", "stock", "category")));
		// a PUT replaces every property but the category: a description left out becomes null
		send(put("/items/" + itemId), "{\"sku\":\"%s\",\"name\":\"Replaced\",\"price\":2,\"stock\":4,\"category\":\"/categories/%d\"}"
			.formatted(sku, otherId))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.name").value("Replaced"))
			.andExpect(jsonPath("$.description").doesNotExist());
		this.mvc.perform(get("/items/" + itemId + "?projection=inlineCategory"))
			.andExpect(jsonPath("$.category.id").value(categoryId));
		// the association resource moves it
		this.mvc.perform(put("/items/" + itemId + "/category").contentType("text/uri-list").content("/categories/" + otherId))
			.andExpect(status().isNoContent());
		this.mvc.perform(get("/items/" + itemId + "?projection=inlineCategory"))
			.andExpect(jsonPath("$.category.id").value(otherId));
		this.mvc.perform(delete("/items/" + itemId + "/category")).andExpect(status().isMethodNotAllowed());
		// never a PUT that creates, no PATCH
		send(put("/items/999999999"), itemBody.formatted(unique("S"), categoryId)).andExpect(status().isMethodNotAllowed());
		send(patch("/items/" + itemId), "{\"name\":\"x\"}").andExpect(status().isMethodNotAllowed());
		// a category with items stays
		this.mvc.perform(delete("/categories/" + otherId)).andExpect(status().isConflict());

		this.mvc.perform(delete("/items/" + itemId)).andExpect(status().isNoContent()).andExpect(content().string(""));
		this.mvc.perform(delete("/items/" + itemId)).andExpect(status().isNotFound());
		this.mvc.perform(delete("/categories/" + otherId)).andExpect(status().isNoContent());
		this.mvc.perform(delete("/categories/" + categoryId)).andExpect(status().isNoContent());
		this.mvc.perform(get("/categories/" + categoryId)).andExpect(status().isNotFound());
	}

	@Test
	void pricesAreJudgedByTheirExactValue() throws Exception {
		String body = "{\"code\":\"%s\",\"name\":\"Prices\"}".formatted(unique("P"));
		long categoryId = read(send(post("/categories"), body).andExpect(status().isCreated())).get("id").asLong();
		for (String price : new String[] { "1.00000000000000001", "99999999.995", "1e400", "1e-400", "-0.01", "100000000" }) {
			send(post("/items"), item(unique("P"), price, categoryId)).andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.errors[*].property", org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.is("price"))));
		}
		for (String price : new String[] { "1e2", "125E-2", "1.10000000000000000000", "99999999.99" }) {
			long id = read(send(post("/items"), item(unique("P"), price, categoryId)).andExpect(status().isCreated()))
				.get("id").asLong();
			this.mvc.perform(delete("/items/" + id)).andExpect(status().isNoContent());
		}
		this.mvc.perform(delete("/categories/" + categoryId)).andExpect(status().isNoContent());
	}

	private static String item(String sku, String price, long categoryId) {
		return "{\"sku\":\"%s\",\"name\":\"n\",\"price\":%s,\"stock\":1,\"category\":\"/categories/%d\"}".formatted(sku,
				price, categoryId);
	}

	private ResultActions send(org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder request,
			String body) throws Exception {
		return this.mvc.perform(request.contentType(MediaType.APPLICATION_JSON).content(body));
	}

	private static JsonNode read(ResultActions result) throws Exception {
		return json.readTree(result.andReturn().getResponse().getContentAsString());
	}

	private static String unique(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
	}

}
