package bench.catalog.http;

import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;

/**
 * What a request body may be, on top of Jersey's Jackson provider: {@code application/json}, in
 * any letter case and with any parameters, else 415 (the provider also reads {@code text/json},
 * {@code +json} types and a few JavaScript types, and a missing type is no JSON either); and at
 * most 1 MiB, announced or chunked, else 413 (neither Jersey nor Grizzly limits an entity that a
 * resource reads). The body is read whole before Jackson parses it, so that its size is judged
 * before its syntax (spec/API.md, "Which error answers first"). And only while the bytes it may
 * take fit what is left of the body budget, else 503 unread (README.md, "Limits").
 */
public final class JsonBodies implements ReaderInterceptor {

    public static final int MAX_BODY_BYTES = 1024 * 1024;

    /**
     * The bytes of request bodies read and parsed at once, by all requests together: four bodies of
     * the largest size, each of which takes about five times its size while it is read whole and
     * parsed into a tree (README.md, "Limits").
     */
    public static final int BODY_BUDGET_BYTES = 4 * MAX_BODY_BYTES;

    private final Semaphore budget = new Semaphore(BODY_BUDGET_BYTES);

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        MediaType type = context.getMediaType();
        if (type == null || !"application".equalsIgnoreCase(type.getType()) || !"json".equalsIgnoreCase(type.getSubtype())) {
            throw new NotSupportedException("Content-Type must be application/json");
        }
        int reserved = reservation(context.getHeaders().getFirst(HttpHeaders.CONTENT_LENGTH));
        if (!budget.tryAcquire(reserved)) {
            throw new ServerBusyException();
        }
        try {
            // One byte past the limit tells a body that is too large.
            byte[] body = context.getInputStream().readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new ClientErrorException("request body is larger than 1 MiB (" + MAX_BODY_BYTES + " bytes)", 413);
            }
            context.setInputStream(new ByteArrayInputStream(body));
            return context.proceed();
        } finally {
            budget.release(reserved);
        }
    }

    /** What a body may take: its announced length, or what is read of it before a 413 when it is longer or chunked. */
    private static int reservation(String contentLength) {
        if (contentLength == null) {
            return MAX_BODY_BYTES + 1;
        }
        try {
            return (int) Math.min(Long.parseLong(contentLength.strip()), MAX_BODY_BYTES + 1);
        } catch (NumberFormatException e) {
            return MAX_BODY_BYTES + 1;
        }
    }
}
