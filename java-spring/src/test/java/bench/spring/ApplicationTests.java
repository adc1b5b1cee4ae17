package bench.spring;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole application on a real port against the database of DATABASE_URL (the runner passes
 * a freshly seeded one): reads the seed exactly, then writes and cleans up rows of its own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class ApplicationTests {

	@Autowired
	private RestTestClient client;

	@Test
	void readsTheSeedWithItsCategoryInOneResponse() {
		this.client.get().uri("/items/12345").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.sku").isEqualTo("SKU-012345")
			.jsonPath("$.price").isEqualTo(600.55)
			.jsonPath("$.stock").isEqualTo(345)
			.jsonPath("$.categoryId").isEqualTo(345)
			.jsonPath("$.category").isEqualTo(Map.of("id", 345, "code", "CAT-0345", "name", "Category 345"))
			.jsonPath("$.updatedAt").isEqualTo("2026-01-01T03:25:45Z");

		this.client.get().uri("/categories/7/items?size=20&page=2").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content.length()").isEqualTo(10)
			.jsonPath("$.content[0].id").isEqualTo(80007)
			.jsonPath("$.page.totalElements").isEqualTo(50)
			.jsonPath("$.page.totalPages").isEqualTo(3);

		this.client.get().uri("/categories?page=9223372036854775807&size=100").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content").isEmpty()
			.jsonPath("$.page.number").isEqualTo(Long.MAX_VALUE)
			.jsonPath("$.page.totalElements").value(Number.class, total -> assertThat(total.longValue()).isGreaterThanOrEqualTo(2000))
			.jsonPath("$.page.totalPages").value(Number.class, pages -> assertThat(pages.longValue()).isGreaterThanOrEqualTo(20));

		this.client.get().uri("/health").exchange().expectStatus().isOk().expectBody().json("{\"status\":\"UP\"}");
	}

	@Test
	void writesAreJudgedByTheDatabase() {
		String suffix = UUID.randomUUID().toString().substring(0, 12);
		long categoryId = create("/categories", "{\"code\": \"T-" + suffix + "\", \"name\": \"Test\"}");
		String item = "{\"sku\": \"T-" + suffix + "\", \"name\": \"Thing\", \"price\": 9.5, \"stock\": 1, \"categoryId\": "
				+ categoryId + "}";
		long itemId = create("/items", item);

		this.client.get().uri("/items?categoryId=" + categoryId).exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content[0].id").isEqualTo(itemId)
			.jsonPath("$.content[0].category.code").isEqualTo("T-" + suffix);
		send("POST", "/items", item).expectStatus().isEqualTo(409);
		send("POST", "/items", item.replace("\"T-", "\"U-").replace("\"categoryId\": " + categoryId, "\"categoryId\": 987654321"))
			.expectStatus().isEqualTo(422)
			.expectBody().jsonPath("$.errors[0].field").isEqualTo("categoryId");
		send("PUT", "/items/" + itemId, item.replace("\"T-" + suffix + "\", \"name\"", "\"SKU-000001\", \"name\""))
			.expectStatus().isEqualTo(409);
		this.client.delete().uri("/categories/" + categoryId).exchange().expectStatus().isEqualTo(409);

		this.client.delete().uri("/items/" + itemId).exchange().expectStatus().isNoContent();
		this.client.delete().uri("/categories/" + categoryId).exchange().expectStatus().isNoContent();
		this.client.get().uri("/categories/" + categoryId + "/items").exchange().expectStatus().isNotFound();
	}

	private long create(String path, String body) {
		Map<?, ?> created = send("POST", path, body).expectStatus().isCreated()
			.expectBody(Map.class).returnResult().getResponseBody();
		assertThat(created).isNotNull();
		return ((Number) created.get("id")).longValue();
	}

	private RestTestClient.ResponseSpec send(String method, String path, String body) {
		return this.client.method(HttpMethod.valueOf(method)).uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange();
	}

}
