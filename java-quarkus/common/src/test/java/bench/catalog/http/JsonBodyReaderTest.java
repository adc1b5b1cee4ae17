package bench.catalog.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.annotation.Annotation;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A body the client stopped sending is told apart from one that is not JSON, and from a server's I/O failure. */
class JsonBodyReaderTest {

    private static final String CUT = "{\"sku\": \"SKU-1\", \"na";

    private final JsonBodyReader reader = new JsonBodyReader(new ObjectMapper());

    @Test
    void aConnectionThatEndsPartWayIsAnUnreadBody() {
        IOException closed = new IOException("Connection was closed");
        InputStream body = new SequenceInputStream(new ByteArrayInputStream(CUT.getBytes(StandardCharsets.UTF_8)),
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw closed;
                    }
                });
        UnreadBodyException unread = assertThrows(UnreadBodyException.class, () -> read(body));
        assertSame(closed, unread.getCause());
        assertEquals("the request body could not be read", unread.getMessage());
    }

    @Test
    void aBodyCutShortThatEndsIsMalformedJson() {
        assertThrows(MalformedJsonException.class,
                () -> read(new ByteArrayInputStream(CUT.getBytes(StandardCharsets.UTF_8))));
    }

    private WriteBody read(InputStream body) throws IOException {
        return reader.readFrom(WriteBody.class, WriteBody.class, new Annotation[0], MediaType.APPLICATION_JSON_TYPE,
                new MultivaluedHashMap<>(), body);
    }
}
