package bench.catalog.http;

import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * What a request body may be, on top of Jersey's Jackson provider: {@code application/json}, in
 * any letter case and with any parameters, else 415 (the provider also reads {@code text/json},
 * {@code +json} types and a few JavaScript types, and a missing type is no JSON either); and at
 * most 1 MiB, announced or chunked, else 413 (neither Jersey nor Grizzly limits an entity that a
 * resource reads). The body is read whole before Jackson parses it, so that its size is judged
 * before its syntax (spec/API.md, "Which error answers first").
 */
public final class JsonBodies implements ReaderInterceptor {

    static final int MAX_BODY_BYTES = 1024 * 1024;

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        MediaType type = context.getMediaType();
        if (type == null || !"application".equalsIgnoreCase(type.getType()) || !"json".equalsIgnoreCase(type.getSubtype())) {
            throw new NotSupportedException("Content-Type must be application/json");
        }
        // One byte past the limit tells a body that is too large.
        byte[] body = context.getInputStream().readNBytes(MAX_BODY_BYTES + 1);
        if (body.length > MAX_BODY_BYTES) {
            throw new ClientErrorException("request body is larger than 1 MiB (" + MAX_BODY_BYTES + " bytes)", 413);
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
