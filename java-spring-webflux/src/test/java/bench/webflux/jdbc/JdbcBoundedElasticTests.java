package bench.webflux.jdbc;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import bench.webflux.category.CategoryRepository;
import bench.webflux.item.ItemRepository;
import com.zaxxer.hikari.HikariDataSource;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.web.reactive.server.WebTestClient;

import static bench.webflux.Problems.problem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The variant jdbc-bounded-elastic: the whole application under its Spring profile, on Reactor
 * Netty, against the database of DATABASE_URL, as ApplicationTests runs the stack itself. Its
 * controllers and services are the stack's; what differs is below them, and so is what this checks:
 * that nothing of R2DBC is built, that PostgreSQL still judges the writes through JDBC, and that
 * every JDBC call runs on boundedElastic, never on an event loop (BlockHound watches those).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
@ActiveProfiles(JdbcConfiguration.PROFILE)
class JdbcBoundedElasticTests {

	@Autowired
	private WebTestClient client;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private CategoryRepository categories;

	@Autowired
	private ItemRepository items;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private HikariDataSource dataSource;

	@Test
	void theRepositoriesAreJdbcOnHikariAndNothingOfR2dbcIsBuilt() {
		assertThat(AopUtils.getTargetClass(this.categories)).isEqualTo(JdbcCategoryRepository.class);
		assertThat(AopUtils.getTargetClass(this.items)).isEqualTo(JdbcItemRepository.class);
		assertThat(this.context.getBean(DataSource.class)).isSameAs(this.dataSource);
		assertThat(this.context.getBeansOfType(ConnectionFactory.class)).isEmpty();
	}

	@Test
	void readsTheSeedWithItsCategoryInOneResponse() {
		this.client.get().uri("/items/12345").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.sku").isEqualTo("SKU-012345")
			.jsonPath("$.price").isEqualTo(600.55)
			.jsonPath("$.stock").isEqualTo(345)
			.jsonPath("$.category").isEqualTo(Map.of("id", 345, "code", "CAT-0345", "name", "Category 345"))
			.jsonPath("$.updatedAt").isEqualTo("2026-01-01T03:25:45Z");
		this.client.get().uri("/categories/7/items?size=20&page=2").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content.length()").isEqualTo(10)
			.jsonPath("$.content[0].id").isEqualTo(80007)
			.jsonPath("$.page.totalElements").isEqualTo(50);
		this.client.get().uri("/items?size=3&page=5").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content[*].id").isEqualTo(List.of(16, 17, 18));
		this.client.get().uri("/categories?size=2&page=1").exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content[*].code").isEqualTo(List.of("CAT-0003", "CAT-0004"))
			.jsonPath("$.content[0].updatedAt").isNotEmpty();
		this.client.get().uri("/categories/3").exchange().expectStatus().isOk();
		problem(this.client.get().uri("/items/999999999").exchange(), 404);
		problem(this.client.get().uri("/categories/999999999/items").exchange(), 404);
		this.client.get().uri("/health").exchange().expectStatus().isOk().expectBody().json("{\"status\":\"UP\"}");
	}

	@Test
	void writesAreJudgedByTheDatabase() {
		String suffix = UUID.randomUUID().toString().substring(0, 12);
		long categoryId = create("/categories", "{\"code\": \"J-" + suffix + "\", \"name\": \"Test\"}");
		String item = "{\"sku\": \"J-" + suffix + "\", \"name\": \"Thing\", \"price\": 9.5, \"stock\": 1, \"categoryId\": "
				+ categoryId + "}";
		long itemId = create("/items", item);

		this.client.get().uri("/items?categoryId=" + categoryId).exchange()
			.expectStatus().isOk()
			.expectBody()
			.jsonPath("$.content[0].id").isEqualTo(itemId)
			.jsonPath("$.content[0].price").isEqualTo(9.5)
			.jsonPath("$.content[0].description").isEmpty()
			.jsonPath("$.content[0].category.code").isEqualTo("J-" + suffix);
		problem(send("POST", "/items", item), 409);
		problem(send("POST", "/items", item.replace("\"J-", "\"K-")
			.replace("\"categoryId\": " + categoryId, "\"categoryId\": 987654321")), 422)
			.jsonPath("$.errors[0].field").isEqualTo("categoryId");
		problem(send("PUT", "/categories/" + categoryId, "{\"code\": \"CAT-0001\", \"name\": \"n\"}"), 409);
		problem(send("PUT", "/items/999999999", item), 404);
		problem(this.client.delete().uri("/categories/" + categoryId).exchange(), 409);

		send("PUT", "/items/" + itemId, item.replace("9.5", "1e2").replace("\"stock\"", "\"description\": \"d\", \"stock\""))
			.expectStatus().isOk()
			.expectBody().jsonPath("$.price").isEqualTo(100.0).jsonPath("$.description").isEqualTo("d");
		send("PUT", "/categories/" + categoryId, "{\"code\": \"J-" + suffix + "\", \"name\": \"Renamed\"}")
			.expectStatus().isOk();
		this.client.get().uri("/items/" + itemId).exchange()
			.expectStatus().isOk()
			.expectBody().jsonPath("$.category.name").isEqualTo("Renamed");
		this.client.delete().uri("/items/" + itemId).exchange().expectStatus().isNoContent();
		this.client.delete().uri("/categories/" + categoryId).exchange().expectStatus().isNoContent();
		problem(this.client.delete().uri("/items/" + itemId).exchange(), 404);
		problem(this.client.delete().uri("/categories/" + categoryId).exchange(), 404);
	}

	@Test
	void everyJdbcCallRunsOnBoundedElastic() {
		StepVerifier.create(this.categories.findById(3L).map(category -> Thread.currentThread().getName()))
			.assertNext(thread -> assertThat(thread).startsWith("boundedElastic-"))
			.verifyComplete();
		StepVerifier.create(this.items.findPageWithCategory(2, 0).map(item -> Thread.currentThread().getName()))
			.assertNext(thread -> assertThat(thread).startsWith("boundedElastic-"))
			.assertNext(thread -> assertThat(thread).startsWith("boundedElastic-"))
			.verifyComplete();
		// Asked for from a thread that must not block, the repository moves off it ...
		StepVerifier.create(Mono.defer(() -> this.items.countAll()).subscribeOn(Schedulers.parallel()))
			.assertNext(count -> assertThat(count).isGreaterThanOrEqualTo(100_000))
			.verifyComplete();
		// ... which BlockHound would otherwise fail, as it fails the same JDBC call made right there
		// (at PgJDBC's socket write).
		StepVerifier.create(Mono.fromCallable(() -> this.jdbc.sql("SELECT count(*) FROM item").query(Long.class).single())
			.subscribeOn(Schedulers.parallel()))
			.expectError(BlockingOperationError.class)
			.verify();
		// That call was cut off with its query buffered but unsent: its connection, back in the pool,
		// would send it along with the next statement. No other test may get it.
		this.dataSource.getHikariPoolMXBean().softEvictConnections();
	}

	private long create(String path, String body) {
		Map<?, ?> created = send("POST", path, body).expectStatus().isCreated()
			.expectBody(Map.class).returnResult().getResponseBody();
		assertThat(created).isNotNull();
		return ((Number) created.get("id")).longValue();
	}

	private WebTestClient.ResponseSpec send(String method, String path, String body) {
		return this.client.method(HttpMethod.valueOf(method)).uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange();
	}

}
