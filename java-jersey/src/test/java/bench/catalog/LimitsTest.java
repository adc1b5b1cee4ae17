package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.catalog.http.JsonBodies;
import jakarta.ws.rs.core.Response;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What bounds the server under load (README.md, "Limits"): the body budget and the time a request's headers have. */
class LimitsTest extends ApiTest {

    @Test
    void aBodyThatDoesNotFitTheBudgetIs503() throws Exception {
        // Requests that announce the largest body and have sent none of it yet hold the whole budget.
        List<Socket> holders = new ArrayList<>();
        try {
            for (int held = 0; held < JsonBodies.BODY_BUDGET_BYTES; held += JsonBodies.MAX_BODY_BYTES) {
                Socket holder = new Socket(getBaseUri().getHost(), getBaseUri().getPort());
                holder.getOutputStream().write(("POST /items HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + JsonBodies.MAX_BODY_BYTES + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                holders.add(holder);
            }
            assertProblem(503, postUntil(503));
        } finally {
            // Their bytes come back once their bodies (an empty object, padded) have been read.
            byte[] padded = new byte[JsonBodies.MAX_BODY_BYTES];
            Arrays.fill(padded, (byte) ' ');
            padded[0] = '{';
            padded[padded.length - 1] = '}';
            for (Socket holder : holders) {
                try (holder; OutputStream out = holder.getOutputStream()) {
                    out.write(padded);
                    holder.getInputStream().readAllBytes();
                }
            }
        }
        assertEquals(422, postUntil(422).getStatus());
    }

    /** One wait for both: the head's limit closes one connection while a body paused as long is still read. */
    @Test
    void aConnectionWhoseHeadersDoNotArriveIsClosedAfter10SecondsAndABodyHasLonger() throws Exception {
        String body = "{\"name\": \"paused\", \"code\": \"PAUSED-1\"}";
        try (Socket slowHead = new Socket(getBaseUri().getHost(), getBaseUri().getPort());
                Socket slowBody = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            slowHead.setSoTimeout(15_000);
            slowBody.setSoTimeout(15_000);
            long start = System.nanoTime();
            slowHead.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1));
            slowBody.getOutputStream().write(("POST /categories HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body.substring(0, 10))
                    .getBytes(StandardCharsets.ISO_8859_1));

            assertEquals(-1, slowHead.getInputStream().read());
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waited > 9_000 && waited < 12_000, "closed after " + waited + " ms");

            Thread.sleep(Math.max(0, 11_000 - waited));
            slowBody.getOutputStream().write(body.substring(10).getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(slowBody.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 201"), answer);
        }
    }

    /** An empty item posted until the answer has {@code status}, for up to 5 s: the holders are read in their own time. */
    private Response postUntil(int status) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Response response;
        do {
            response = send("POST", "/items", "{}");
        } while (response.getStatus() != status && System.nanoTime() < deadline);
        return response;
    }
}
