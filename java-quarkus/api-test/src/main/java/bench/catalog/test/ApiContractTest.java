package bench.catalog.test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An application in-process over HTTP (RestAssured), against DATABASE_URL: its own logic (routes,
 * the order of errors, the error map, the data layer's domain errors). The conformance suite is
 * what proves the contract. Each application runs these cases through a {@code @QuarkusTest}
 * subclass, as its data access and resource signatures are all that differ between them.
 */
public abstract class ApiContractTest {

    private static final String PROBLEM = "application/problem+json";

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
    }

    @Test
    void anItemCarriesItsCategory() {
        given().get("/items/42").then().statusCode(200)
                .body("sku", equalTo("SKU-000042"))
                .body("categoryId", equalTo(42))
                .body("category.code", equalTo("CAT-0042"));
    }

    @Test
    void aPageHasTheTotals() {
        given().get("/categories/7/items?size=2&page=007").then().statusCode(200)
                .body("content", hasSize(2))
                .body("page.totalElements", equalTo(50))
                .body("page.totalPages", equalTo(25))
                .body("page.number", equalTo(7));
        given().get("/items?page=9223372036854775807&size=100").then().statusCode(200)
                .body("content", hasSize(0));
    }

    @Test
    void createReplaceAndDeleteACategory() {
        String code = unique("T");
        int id = given().contentType(ContentType.JSON).body("{\"code\":\"" + code + "\",\"name\":\"one\"}")
                .post("/categories").then().statusCode(201)
                .header("Location", startsWith("http"))
                .extract().path("id");
        given().contentType(ContentType.JSON).body("{\"code\":\"" + code + "\",\"name\":\"two\"}")
                .put("/categories/" + id).then().statusCode(200).body("name", equalTo("two"));
        given().contentType(ContentType.JSON).body("{\"code\":\"" + code + "\",\"name\":\"again\"}")
                .post("/categories").then().statusCode(409).contentType(PROBLEM).body("title", equalTo("Conflict"));
        given().delete("/categories/" + id).then().statusCode(204);
        given().get("/categories/" + id).then().statusCode(404).contentType(PROBLEM);
    }

    @Test
    void theDatabaseJudgesTheCategoryOfAnItem() {
        String body = "{\"sku\":\"" + unique("S") + "\",\"name\":\"n\",\"price\":1.5,\"stock\":1,\"categoryId\":0}";
        given().contentType(ContentType.JSON).body(body).post("/items").then().statusCode(422)
                .body("errors[0].field", equalTo("categoryId"));
        given().delete("/categories/1").then().statusCode(409).body("detail", equalTo("category 1 still has items"));
    }

    /**
     * PostgreSQL's DETAIL of a row it rejects repeats the row's key, which no log may hold
     * (spec/API.md, "Start-up, health and logging"). Hibernate logs that text before the error map
     * sees the error unless its category is OFF, as common's META-INF/microprofile-config.properties
     * sets it: this holds the setting to it.
     */
    @Test
    void rowsPostgresqlRejectsLeaveTheirValuesOutOfTheLog() {
        String marker = unique("L");
        int category = given().contentType(ContentType.JSON).body("{\"code\":\"" + marker + "\",\"name\":\"n\"}")
                .post("/categories").then().statusCode(201).extract().path("id");
        int other = given().contentType(ContentType.JSON).body("{\"code\":\"" + unique("O") + "\",\"name\":\"n\"}")
                .post("/categories").then().statusCode(201).extract().path("id");
        int item = given().contentType(ContentType.JSON).body(itemBody(marker, category))
                .post("/items").then().statusCode(201).extract().path("id");
        try (LogCapture log = LogCapture.start()) {
            given().contentType(ContentType.JSON).body("{\"code\":\"" + marker + "\",\"name\":\"again\"}")
                    .post("/categories").then().statusCode(409);
            given().contentType(ContentType.JSON).body("{\"code\":\"" + marker + "\",\"name\":\"taken\"}")
                    .put("/categories/" + other).then().statusCode(409);
            given().contentType(ContentType.JSON).body(itemBody(marker, category))
                    .post("/items").then().statusCode(409);
            given().contentType(ContentType.JSON).body(itemBody(marker + "-2", 9_000_000_000L))
                    .post("/items").then().statusCode(422).body("errors[0].field", equalTo("categoryId"));
            assertEquals(List.of(), log.holding(marker).stream().map(LogCapture::text).toList());
        } finally {
            given().delete("/items/" + item).then().statusCode(204);
            given().delete("/categories/" + category).then().statusCode(204);
            given().delete("/categories/" + other).then().statusCode(204);
        }
    }

    private static String itemBody(String sku, long categoryId) {
        return "{\"sku\":\"" + sku + "\",\"name\":\"name " + sku + "\",\"price\":1.5,\"stock\":1,"
                + "\"description\":\"description " + sku + "\",\"categoryId\":" + categoryId + "}";
    }

    @Test
    void errorsAnswerInTheContractsOrder() {
        given().contentType(ContentType.TEXT).body("not json").put("/items/abc").then().statusCode(400);
        given().contentType(ContentType.TEXT).body("{}").put("/items/1").then().statusCode(415);
        given().contentType(ContentType.JSON).body("[1, 2").put("/items/1").then().statusCode(400);
        given().contentType(ContentType.JSON).body("[]").put("/items/1").then().statusCode(422)
                .body("errors[0].field", equalTo(""));
        given().contentType(ContentType.JSON).body("{\"name\":7}").put("/categories/999999999").then()
                .statusCode(422).body("errors", hasSize(2));
        given().patch("/items/abc").then().statusCode(405).header("Allow", "GET, PUT, DELETE");
        given().post("/items/1/stock").then().statusCode(405).header("Allow", "GET");
        given().get("/items/").then().statusCode(404).contentType(PROBLEM);
        given().get("/items?size=").then().statusCode(400).contentType(PROBLEM);
    }

    @Test
    void aBodyOverOneMebibyteIs413() {
        String name = "n".repeat(1 << 20);
        given().contentType(ContentType.JSON).body("{\"code\":\"X\",\"name\":\"" + name + "\"}")
                .post("/categories").then().statusCode(413).contentType(PROBLEM)
                .body("title", equalTo("Content Too Large"));
    }

    @Test
    void healthAndAvatar() {
        given().get("/health").then().statusCode(200).body("status", equalTo("UP"));
        given().redirects().follow(false).get("/avatar").then().statusCode(302)
                .header("Location", startsWith("https://avatar.example.com/Renard-"));
    }

    @Test
    void aRequestHeadThatNeverEndsIsClosedUnanswered() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            // The contract's 10 s from the accept, and the runner's margin for timers that sweep:
            // past it, read() throws.
            socket.setSoTimeout(11_500);
            socket.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, socket.getInputStream().read(), "closed without an answer");
        }
    }
}
