package bench.catalog.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.NullNode;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Reads every request body as a JSON tree, checking in API.md's order: the Content-Type (415),
 * the size (413), then the syntax (400). It consumes every media type so that a wrong one
 * reaches the check here instead of Jersey's own reader lookup; the fields are validated
 * afterwards ({@link RequestBodies}), which gives 422s with one entry per field.
 */
@Consumes(MediaType.WILDCARD)
public final class JsonBodyReader implements MessageBodyReader<JsonNode> {

    static final int MAX_BODY_BYTES = 1024 * 1024;

    private final ObjectReader reader;

    public JsonBodyReader(ObjectMapper mapper) {
        this.reader = mapper.readerFor(JsonNode.class);
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == JsonNode.class;
    }

    @Override
    public JsonNode readFrom(Class<JsonNode> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                             MultivaluedMap<String, String> headers, InputStream entity) throws IOException {
        if (!"application".equalsIgnoreCase(mediaType.getType()) || !"json".equalsIgnoreCase(mediaType.getSubtype())) {
            throw new NotSupportedException("Content-Type must be application/json");
        }
        if (declaredTooLarge(headers.getFirst(HttpHeaders.CONTENT_LENGTH))) {
            throw tooLarge();
        }
        // Read whole (chunked bodies carry no length) so that size is judged before syntax.
        byte[] body = entity.readNBytes(MAX_BODY_BYTES + 1);
        if (body.length > MAX_BODY_BYTES) {
            throw tooLarge();
        }
        if (body.length == 0) {
            throw new BadRequestException("request body is empty: expected JSON");
        }
        try {
            JsonNode tree = reader.readValue(body);
            return tree == null ? NullNode.getInstance() : tree;
        } catch (JacksonException e) {
            throw new BadRequestException("request body is not valid JSON");
        }
    }

    private static boolean declaredTooLarge(String contentLength) {
        if (contentLength == null) {
            return false;
        }
        try {
            return Long.parseLong(contentLength.trim()) > MAX_BODY_BYTES;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static ClientErrorException tooLarge() {
        return new ClientErrorException("request body is larger than 1 MiB (" + MAX_BODY_BYTES + " bytes)", 413);
    }
}
