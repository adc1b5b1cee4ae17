package bench.catalog.http;

import bench.catalog.db.PageRequest;
import bench.catalog.error.ApiException;
import bench.catalog.error.FieldError;
import bench.catalog.error.Problem;
import bench.catalog.json.JsonParser;
import bench.catalog.json.JsonWriter;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Semaphore;

/** One request and its response, as the handlers see them: parameters in, JSON out. */
public final class Exchange {

    /** The hard limit on request bodies: 1 MiB. */
    public static final int BODY_LIMIT = 1 << 20;

    /**
     * How much of an oversized body is still read and thrown away, so that a client that sends
     * its whole body before reading gets its 413 instead of a reset connection.
     */
    private static final long DISCARD_LIMIT = 16L << 20;

    /**
     * What a request with a body holds besides the body's bytes while it is served: its
     * connection's two 8 KiB buffers, the 4 KiB its request head is read into, what its body
     * parses into and its answer (about 38 KB for one of heavy-body's 5 KB items, README.md,
     * "Limits").
     */
    private static final int EXCHANGE_COST = 32 << 10;

    /**
     * The bytes that requests with bodies hold at once, all exchanges together, each charged
     * {@link #charge}: an eighth of the heap (15.5 MiB at jvm.options's 128 MiB), never less than
     * one body of the largest size. A request whose charge does not fit is refused with a 503
     * before its body is read (README.md, "Limits").
     */
    public static final int BODY_BUDGET =
            (int) Math.max(charge(BODY_LIMIT + 1), Runtime.getRuntime().maxMemory() / 8);

    private static final int DEFAULT_PAGE_SIZE = 20;
    private static final int MAX_PAGE_SIZE = 100;

    private final HttpExchange exchange;
    private final Semaphore bodyBytes;
    private int heldBodyBytes;
    private String pathId;
    private Map<String, String> query;

    /** {@code bodyBytes} has a permit for each byte of the body budget that every exchange shares. */
    Exchange(HttpExchange exchange, Semaphore bodyBytes) {
        this.exchange = exchange;
        this.bodyBytes = bodyBytes;
    }

    public String method() {
        return exchange.getRequestMethod();
    }

    String rawPath() {
        return exchange.getRequestURI().getRawPath();
    }

    void pathId(String raw) {
        pathId = raw;
    }

    /** The {id} of the route, its percent-escapes decoded ({@code %2B5} is 5). */
    public long pathId() {
        return parseLong(decodePathSegment(pathId), "path id must be a base-10 integer in the signed 64-bit range");
    }

    public PageRequest pageRequest() {
        long page = queryLong("page", 0, 0, Long.MAX_VALUE, "page must be an integer of at least 0");
        long size = queryLong("size", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE,
                "size must be an integer between 1 and " + MAX_PAGE_SIZE);
        return new PageRequest(page, (int) size);
    }

    /** An optional integer query parameter; present but not an integer is a 400. */
    public OptionalLong queryLong(String name) {
        String value = query().get(name);
        return value == null ? OptionalLong.empty()
                : OptionalLong.of(parseLong(value, name + " must be a base-10 integer in the signed 64-bit range"));
    }

    private long queryLong(String name, long absent, long min, long max, String detail) {
        String value = query().get(name);
        if (value == null) {
            return absent;
        }
        long n = parseLong(value, detail);
        if (n < min || n > max) {
            throw ApiException.badRequest(detail);
        }
        return n;
    }

    private Map<String, String> query() {
        if (query == null) {
            query = parseQuery(exchange.getRequestURI().getRawQuery());
        }
        return query;
    }

    /**
     * The first value of each parameter, form-decoded; a parameter without '=' has the value "".
     * The JDK's server has already answered 400 to a query with a malformed percent-escape: the
     * request URI must parse as a java.net.URI before any handler sees it.
     */
    static Map<String, String> parseQuery(String raw) {
        var params = new HashMap<String, String>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.putIfAbsent(name, value);
        }
        return params;
    }

    /**
     * Percent-decodes one path segment as UTF-8. Unlike a query string, a path keeps '+' as it is,
     * so it is escaped before the form decoder sees it. Malformed escapes never get here (see
     * {@link #parseQuery}).
     */
    static String decodePathSegment(String raw) {
        return raw.indexOf('%') < 0 ? raw : URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** Base-10 ASCII digits with an optional sign, in the signed 64-bit range (Long.parseLong alone takes any Unicode digit). */
    static long parseLong(String s, String detail) {
        int i = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        if (i == s.length()) {
            throw ApiException.badRequest(detail);
        }
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw ApiException.badRequest(detail);
            }
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException outOfRange) {
            throw ApiException.badRequest(detail);
        }
    }

    /**
     * The request body as JSON, checked in the contract's order: Content-Type (415), size (413),
     * syntax (400). Of a JSON object only the named {@code members} are kept. The body is read
     * only if its charge fits what is left of the body budget, else the answer is a 503; the
     * charge is held until {@link #release}, after the answer has been sent.
     */
    public Object readJson(Set<String> members) throws IOException {
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType == null || !isJson(contentType)) {
            throw ApiException.unsupportedMediaType();
        }
        InputStream in = exchange.getRequestBody();
        long declared = contentLength();
        if (declared > BODY_LIMIT) {
            discard(in);
            throw ApiException.contentTooLarge(BODY_LIMIT);
        }
        // A chunked body may grow to one byte past the limit before it is refused.
        int reserved = charge(declared >= 0 ? (int) declared : BODY_LIMIT + 1);
        if (!bodyBytes.tryAcquire(reserved)) {
            throw ApiException.busy();
        }
        heldBodyBytes += reserved;
        Body body = readBody(in, declared);
        if (declared < 0) {
            // What a chunked body did not take of its reservation goes back at once.
            int unused = reserved - charge(body.length());
            bodyBytes.release(unused);
            heldBodyBytes -= unused;
        }
        return JsonParser.parse(body.bytes(), body.length(), members);
    }

    /** What a body of {@code length} bytes is charged: its array and the strings it parses into, and the rest of its exchange. */
    static int charge(int length) {
        return EXCHANGE_COST + 2 * length;
    }

    /** Gives back what {@link #readJson} took of the body budget; the router calls it once the answer is sent. */
    void release() {
        bodyBytes.release(heldBodyBytes);
        heldBodyBytes = 0;
    }

    private record Body(byte[] bytes, int length) {
    }

    /** The body read into one array (a chunked one grown up to one byte past the limit). */
    private static Body readBody(InputStream in, long declared) {
        byte[] body = new byte[declared >= 0 ? (int) declared : 8192];
        int length = 0;
        try {
            while (true) {
                if (length == body.length) {
                    if (declared >= 0) {
                        break;
                    }
                    if (length > BODY_LIMIT) {
                        discard(in);
                        throw ApiException.contentTooLarge(BODY_LIMIT);
                    }
                    // Chunked: grow up to one byte past the limit, which is how an oversized body shows.
                    body = Arrays.copyOf(body, Math.min(length * 2, BODY_LIMIT + 1));
                }
                int n = in.read(body, length, body.length - length);
                if (n < 0) {
                    break;
                }
                length += n;
            }
        } catch (IOException unreadable) {
            throw ApiException.badRequest("the request body could not be read");
        }
        return new Body(body, length);
    }

    /** A JSON media type is application/json, with or without parameters such as charset. */
    static boolean isJson(String contentType) {
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip();
        return mediaType.equalsIgnoreCase("application/json");
    }

    private long contentLength() {
        String header = exchange.getRequestHeaders().getFirst("Content-Length");
        // The server has already refused malformed lengths; chunked bodies have none.
        return header == null ? -1 : Long.parseLong(header.strip());
    }

    private static void discard(InputStream in) {
        var scratch = new byte[8192];
        long total = 0;
        try {
            int n;
            while (total < DISCARD_LIMIT && (n = in.read(scratch)) >= 0) {
                total += n;
            }
        } catch (IOException ignored) {
            // The 413 is the answer either way; the server closes a connection it could not drain.
        }
    }

    public void sendJson(int status, JsonWriter body) throws IOException {
        sendJson(status, body.toBytes());
    }

    public void sendJson(int status, byte[] body) throws IOException {
        send(status, "application/json", body);
    }

    public void sendCreated(String location, JsonWriter body) throws IOException {
        exchange.getResponseHeaders().set("Location", location);
        sendJson(201, body);
    }

    public void sendNoContent() throws IOException {
        exchange.sendResponseHeaders(204, -1);
    }

    public void sendRedirect(String location) throws IOException {
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(302, -1);
    }

    /** Writes the problem, unless a response has already begun (then the server drops the connection). */
    void sendProblem(Problem problem) throws IOException {
        if (exchange.getResponseCode() != -1) {
            return;
        }
        var w = new JsonWriter()
                .beginObject()
                .field("type", "about:blank")
                .field("title", problem.title())
                .field("status", problem.status())
                .field("detail", problem.detail());
        if (!problem.errors().isEmpty()) {
            w.name("errors").beginArray();
            for (FieldError error : problem.errors()) {
                w.beginObject().field("field", error.field()).field("message", error.message()).endObject();
            }
            w.endArray();
        }
        w.endObject();
        var headers = exchange.getResponseHeaders();
        headers.clear();
        if (problem.allow() != null) {
            headers.set("Allow", problem.allow());
        }
        if (problem.status() == 503) {
            // A server over its bounds (or without its database) lets the connection go, and the
            // buffers the JDK keeps for it; its body, if any, is then not read (spec/API.md).
            headers.set("Connection", "close");
        }
        send(problem.status(), "application/problem+json", w.toBytes());
    }

    private void send(int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
