package bench.catalog.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Reads a write body in spec/API.md's order, which Quarkus' own Jackson reader does not keep: the
 * whole body's syntax first (400, also for an empty body and trailing data), then its shape (an
 * object, or a 422 on the body), and only then the binding to the record, whose fields
 * Hibernate Validator checks (422 per field). Jackson alone binds as it parses, so {@code [1, 2}
 * would fail on its first token as a mismatch rather than as the broken JSON it is. The body is
 * read whole first, counted as it comes, so that a chunked body's 1,048,577th byte is a 413
 * (BodyLimits) before its syntax is judged; a read that fails part-way (the client left) is an
 * {@link UnreadBodyException}, a 400.
 */
@Provider
@Consumes(MediaType.APPLICATION_JSON)
public class JsonBodyReader implements MessageBodyReader<WriteBody> {

    private final ObjectMapper json;
    private final ObjectReader syntax;

    public JsonBodyReader(ObjectMapper json) {
        this.json = json;
        this.syntax = json.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return WriteBody.class.isAssignableFrom(type);
    }

    @Override
    public WriteBody readFrom(Class<WriteBody> type, Type genericType, Annotation[] annotations, MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders, InputStream body) throws IOException {
        byte[] bytes;
        try {
            bytes = new LimitedInputStream(body, BodyLimits.MAX_BODY_BYTES).readAllBytes();
        } catch (IOException e) {
            // The connection ended or stalled part-way: not an I/O failure of the server's own,
            // which the error map would take for the database's (SqlStates).
            throw new UnreadBodyException(e);
        }
        JsonNode tree;
        try {
            tree = syntax.readTree(bytes);
        } catch (JacksonException e) {
            throw new MalformedJsonException("the body is not valid JSON");
        }
        if (tree == null || tree.isMissingNode()) {
            throw new MalformedJsonException("the body is empty, which is not JSON");
        }
        if (!tree.isObject()) {
            throw new NotAnObjectException();
        }
        return json.treeToValue(tree, type);
    }
}
