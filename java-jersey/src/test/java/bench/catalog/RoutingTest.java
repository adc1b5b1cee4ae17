package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.http.Json;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Jersey's routing answers in problem JSON, in API.md's order: route, method, then the id. */
class RoutingTest extends ApiTest {

    private static final String CATEGORY = "{\"code\": \"X\", \"name\": \"y\"}";

    @ParameterizedTest
    @ValueSource(strings = {"/nope", "/items/", "/categories/", "/items/1/", "/categories/1/items/", "/items/1/extra",
            "/application.wadl"})
    void unknownRoutesAreProblem404s(String path) {
        assertProblem(404, target(path).request().get());
    }

    @Test
    void aTrailingSlashIs404ForWritesToo() {
        assertProblem(404, send("POST", "/items/", "{}"));
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

    /** Grizzly answers a broken %-escape with a 500 of its own; the error page makes it the 400 it is. */
    @ParameterizedTest
    @ValueSource(strings = {"/items/%zz", "/categories/%zz/items", "/items?page=%zz", "/items?%zz=1"})
    void brokenPercentEscapesAreProblem400s(String target) throws Exception {
        String response = raw("GET " + target + " HTTP/1.1\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 400 "), response);
        assertTrue(response.toLowerCase().contains("content-type: application/problem+json"), response);
        assertTrue(response.contains("\"status\":400"), response);
    }

    /** Methods Grizzly and Jersey know nothing of reach the routing like any other (Jersey's client cannot send them). */
    @ParameterizedTest
    @ValueSource(strings = {"QUERY", "PROPFIND", "FOO", "query", "M-SEARCH", "TRACE"})
    void unknownMethodsAre405WithAllowOnKnownPathsAnd404Elsewhere(String method) throws Exception {
        for (String path : new String[] {"/categories", "/items/1", "/categories/1/items", "/health"}) {
            HttpResponse<String> response = jdkClient(HttpRequest.newBuilder(getBaseUri().resolve(path))
                    .method(method, HttpRequest.BodyPublishers.ofString(CATEGORY)));
            assertEquals(405, response.statusCode(), method + " " + path + ": " + response.body());
            assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
            assertTrue(response.headers().firstValue("Allow").orElse("").contains("GET"), method + " " + path);
            assertTrue(response.body().contains("\"status\":405"), response.body());
        }
        HttpResponse<String> unknown = jdkClient(HttpRequest.newBuilder(getBaseUri().resolve("/nope"))
                .method(method, HttpRequest.BodyPublishers.ofString(CATEGORY)));
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertEquals("application/problem+json", unknown.headers().firstValue("Content-Type").orElse(""));
    }

    /** A request body, by length or chunked, on any method Grizzly frames by its headers keeps a kept-alive connection in step. */
    @ParameterizedTest
    @ValueSource(strings = {
        "QUERY /items HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
        "DELETE /items/999999999 HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
        "GET /items/1 HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
        "POST /items HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
    })
    void theNextRequestOnAKeptAliveConnectionIsAnsweredInTurn(String first) throws Exception {
        String request = first.formatted(CATEGORY.length(), CATEGORY).replaceFirst("\r\n", "\r\nHost: localhost\r\n");
        String next = "QUERY /categories HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + CATEGORY.length() + "\r\nConnection: close\r\n\r\n" + CATEGORY;
        String answers;
        try (Socket socket = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((request + next).getBytes(StandardCharsets.ISO_8859_1));
            answers = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        String expected = switch (first.substring(0, first.indexOf(' '))) {
            case "QUERY" -> "405";
            case "DELETE" -> "404";
            case "GET" -> "200";
            default -> "422"; // the category body is no item
        };
        assertEquals(List.of(expected, "405"), statuses(answers), answers);
    }

    /**
     * Grizzly frames a TRACE, CONNECT or PRI body by the method (never one on TRACE, always one
     * on the other two), so these are answered by Jersey (405 or 404) with {@code Connection:
     * close}: an unread TRACE body is never parsed as the next request (a 505), and no request
     * after a PRI is swallowed as its body while its client waits. A pipelined next request goes
     * with the connection; no client of this API sends these methods.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "TRACE /categories HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
        "TRACE /nope HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
        "TRACE /items/1 HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
        "PRI /items HTTP/1.1\r\n\r\n",
        "PRI /items HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
        "CONNECT /items HTTP/1.1\r\n\r\n",
    })
    void methodsGrizzlyFramesByNameCloseTheConnection(String first) throws Exception {
        String request = first.formatted(CATEGORY.length(), CATEGORY).replaceFirst("\r\n", "\r\nHost: localhost\r\n");
        String next = "GET /items/1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
        try (Socket socket = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((request + next).getBytes(StandardCharsets.ISO_8859_1));
            String head = head(socket.getInputStream());
            assertTrue(head.startsWith(first.contains("/nope") ? "HTTP/1.1 404 " : "HTTP/1.1 405 "), head);
            assertTrue(head.toLowerCase().contains("\r\nconnection: close\r\n"), head);
        }
    }

    /**
     * What only a fuzzer sends may get Jersey's own answer, as long as it is no 5xx
     * (spec/README.md): an unparseable Content-Type or Accept is a bare 400 from Jersey, a
     * wildcard or +json Content-Type on a write is the 415 of any other non-JSON type, and
     * query parameters without a name are ignored.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "GET /items/1 HTTP/1.1\r\nAccept: ;;;\r\n\r\n",
        "GET /items/1 HTTP/1.1\r\nContent-Type: ;;\r\n\r\n",
        "POST /categories HTTP/1.1\r\nContent-Type: ;;\r\nContent-Length: %d\r\n\r\n%s",
        "POST /categories HTTP/1.1\r\nContent-Type: no/such; =\r\nContent-Length: %d\r\n\r\n%s",
        "POST /categories HTTP/1.1\r\nContent-Type: application/json\r\nContent-Type: application/json\r\n"
                + "Content-Length: %d\r\n\r\n%s",
        "POST /categories HTTP/1.1\r\nContent-Type: */*\r\nContent-Length: %d\r\n\r\n%s",
        "PUT /categories/1 HTTP/1.1\r\nContent-Type: application/*\r\nContent-Length: %d\r\n\r\n%s",
        "POST /items HTTP/1.1\r\nContent-Type: application/merge-patch+json\r\nContent-Length: %d\r\n\r\n%s",
        "GET /items?=1 HTTP/1.1\r\n\r\n",
        "GET /categories?&&page=0& HTTP/1.1\r\n\r\n",
        "GET /items?=&=%%09&page=1 HTTP/1.1\r\n\r\n",
    })
    void inputsOnlyAFuzzerSendsAreNeverA5xx(String request) throws Exception {
        String response = raw(request.formatted(CATEGORY.length(), CATEGORY));
        List<String> statuses = statuses(response);
        assertEquals(1, statuses.size(), response);
        int status = Integer.parseInt(statuses.get(0));
        assertTrue(status >= 200 && status < 500, response);
        if (request.startsWith("GET /items?") || request.startsWith("GET /categories?")) {
            assertEquals(200, status, response);
        }
    }

    /** API.md ignores the Content-Type of a read; a write without a JSON one is a 415. */
    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "multipart/form-data", "multipart/form-data; boundary=x",
            "application/x-www-form-urlencoded"})
    void otherContentTypesAreIgnoredOnReadsAnd415OnWrites(String contentType) throws Exception {
        assertEquals(200, withContentType("GET", "/items/1", contentType, null).statusCode());
        assertEquals(200, withContentType("GET", "/categories?size=2", contentType, null).statusCode());
        assertEquals(200, withContentType("GET", "/health", contentType, null).statusCode());
        assertEquals(404, withContentType("DELETE", "/items/999999999", contentType, null).statusCode());
        for (String write : new String[] {"POST /categories", "PUT /categories/1", "POST /items", "PUT /items/1"}) {
            String[] parts = write.split(" ");
            HttpResponse<String> response = withContentType(parts[0], parts[1], contentType, CATEGORY);
            assertEquals(415, response.statusCode(), write + ": " + response.body());
            assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        }
        // The earlier checks still come first: the method (405), then the path id (400).
        assertEquals(405, withContentType("POST", "/items/1", contentType, CATEGORY).statusCode());
        assertEquals(400, withContentType("PUT", "/items/abc", contentType, CATEGORY).statusCode());
    }

    @Test
    void subResourceLocatorAnswers405BeforeParsingTheId() {
        Response response = send("POST", "/categories/abc/items", "{}");
        assertProblem(405, response);
        assertTrue(allowed(response).contains("GET"));
    }

    /** Path ids are [+-]?[0-9]+ in the signed 64-bit range, with ASCII digits only. */
    @ParameterizedTest
    @ValueSource(strings = {"/items/abc", "/items/1.5", "/items/99999999999999999999", "/categories/abc",
            "/categories/abc/items", "/categories/99999999999999999999/items", "/items/%20", "/categories/%20",
            "/items/+", "/items/-", "/categories/%20/items", "/items/%D9%A1%D9%A2", "/items/%EF%BC%95",
            "/categories/%D9%A1%D9%A2", "/categories/%EF%BC%95/items", "/items/%205", "/items/5%20", "/items/1_0",
            "/items/1e3", "/items/0x10", "/items/++5", "/items/+-5", "/items/9223372036854775808"})
    void malformedIdsAre400(String path) {
        assertProblem(400, target(path).request().get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/items/-5", "/items/0", "/categories/-5", "/categories/0/items",
            "/items/-9223372036854775808", "/items/9223372036854775807"})
    void wellFormedIdsThatNameNothingAre404(String path) {
        assertProblem(404, target(path).request().get());
    }

    /** A leading + and leading zeros are fine: the path's "+5" (or "%2B5") and "007" are ids 5 and 7. */
    @ParameterizedTest
    @ValueSource(strings = {"/items/+5", "/items/%2B5", "/items/005", "/categories/+5", "/categories/0005"})
    void signedAndZeroPaddedIdsNameTheirRow(String path) {
        Response response = target(path).request().get();
        assertEquals(200, response.getStatus());
        assertEquals(5, body(response).get("id").asLong());
    }

    @Test
    void signedIdOfTheSubResource() {
        Response response = target("/categories/+5/items").request().get();
        assertEquals(200, response.getStatus());
        assertEquals(50, body(response).get("page").get("totalElements").asLong());
    }

    @Test
    void malformedIdComesBeforeTheContentType() {
        Response response = target("/items/abc").request().put(jakarta.ws.rs.client.Entity.text("{}"));
        assertProblem(400, response);
    }

    private HttpResponse<String> withContentType(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(getBaseUri().toString().replaceAll("/$", "") + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** One request over a plain socket, for what no HTTP client would send; the answer as text. */
    private String raw(String request) throws Exception {
        String withHost = request.replaceFirst("\r\n", "\r\nHost: localhost\r\nConnection: close\r\n");
        try (Socket socket = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(withHost.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static List<String> statuses(String answers) {
        return Pattern.compile("HTTP/1\\.1 (\\d{3}) ").matcher(answers).results().map(match -> match.group(1)).toList();
    }

    /** The status line and headers of the first answer on a connection. */
    private static String head(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            head.append((char) c);
        }
        return head.toString();
    }

    private static HttpResponse<String> jdkClient(HttpRequest.Builder request) throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            return client.send(request.header("Content-Type", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    private static Set<String> allowed(Response response) {
        String header = response.getHeaderString(HttpHeaders.ALLOW);
        assertEquals(false, header == null, "Allow header missing");
        return Set.of(header.replace(" ", "").split(","));
    }
}
