package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.http.Json;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Jersey's routing answers in problem JSON, in API.md's order: route, method, then the id. */
class RoutingTest extends ApiTest {

    @ParameterizedTest
    @ValueSource(strings = {"/nope", "/items/", "/categories/", "/items/1/", "/items/1/extra", "/application.wadl"})
    void unknownRoutesAreProblem404s(String path) {
        assertProblem(404, target(path).request().get());
    }

    @Test
    void wrongMethodIs405WithAllowEvenWhenTheIdIsMalformed() {
        Response response = send("POST", "/items/abc", "{}");
        assertProblem(405, response);
        assertTrue(allowed(response).containsAll(Set.of("GET", "PUT", "DELETE")), allowed(response).toString());
        assertEquals(false, allowed(response).contains("POST"));
    }

    @Test
    void wrongMethodOnACollectionListsItsMethods() {
        Response response = target("/categories").request().delete();
        assertProblem(405, response);
        assertTrue(allowed(response).containsAll(Set.of("GET", "POST")), allowed(response).toString());
    }

    /** Jersey's client refuses a DELETE with a body, so the JDK's client sends this one. */
    @Test
    void deleteWithABodyIsAnsweredByJerseyNotByGrizzly() throws Exception {
        HttpResponse<String> response = jdkClient(HttpRequest.newBuilder(getBaseUri().resolve("/items"))
                .method("DELETE", HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(405, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        assertTrue(response.headers().firstValue("Allow").orElse("").contains("POST"));
    }

    /** The JDK's client offers an HTTP/2 upgrade ("Upgrade: h2c") on every plain-HTTP request. */
    @Test
    void http2UpgradeOfferIsDeclined() throws Exception {
        String code = unique("H2C");
        HttpResponse<String> created = jdkClient(HttpRequest.newBuilder(getBaseUri().resolve("/categories"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"" + code + "\",\"name\":\"h2c\"}")));
        assertEquals(201, created.statusCode(), created.body());
        assertEquals(HttpClient.Version.HTTP_1_1, created.version());
        assertEquals("application/json", created.headers().firstValue("Content-Type").orElse(""));
        long id = Json.newMapper().readTree(created.body()).get("id").asLong();
        assertEquals(204, target("/categories/" + id).request().delete().getStatus());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "GET /items/%zz HTTP/1.1",
        "POST /categories HTTP/1.1\r\nContent-Type: ;;;\r\nContent-Length: 2\r\n\r\n{}",
    })
    void malformedRequestsAreProblem400s(String request) throws Exception {
        String response = raw(request.contains("\r\n\r\n") ? request : request + "\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 400 "), response);
        assertTrue(response.toLowerCase().contains("content-type: application/problem+json"), response);
        assertTrue(response.contains("\"status\":400"), response);
    }

    /** One request over a plain socket, for what no HTTP client would send; the answer as text. */
    private String raw(String request) throws Exception {
        String withHost = request.replaceFirst("\r\n", "\r\nHost: localhost\r\nConnection: close\r\n");
        try (Socket socket = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            socket.getOutputStream().write(withHost.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static HttpResponse<String> jdkClient(HttpRequest.Builder request) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(request.header("Content-Type", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void subResourceLocatorAnswers405BeforeParsingTheId() {
        Response response = send("POST", "/categories/abc/items", "{}");
        assertProblem(405, response);
        assertTrue(allowed(response).contains("GET"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/items/abc", "/items/1.5", "/items/99999999999999999999", "/categories/abc",
            "/categories/abc/items", "/categories/99999999999999999999/items", "/items/%20", "/categories/%20",
            "/items/+", "/categories/%20/items"})
    void malformedIdsAre400(String path) {
        assertProblem(400, target(path).request().get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/items/-5", "/items/0", "/categories/-5", "/categories/0/items"})
    void wellFormedIdsThatNameNothingAre404(String path) {
        assertProblem(404, target(path).request().get());
    }

    @Test
    void malformedIdComesBeforeTheContentType() {
        Response response = target("/items/abc").request().put(jakarta.ws.rs.client.Entity.text("{}"));
        assertProblem(400, response);
    }

    private static Set<String> allowed(Response response) {
        String header = response.getHeaderString(HttpHeaders.ALLOW);
        assertEquals(false, header == null, "Allow header missing");
        return Set.of(header.replace(" ", "").split(","));
    }
}
