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

    @Test
    void aConnectionWhoseHeadersDoNotArriveIsClosedAfter10Seconds() throws Exception {
        try (Socket slow = new Socket(getBaseUri().getHost(), getBaseUri().getPort())) {
            slow.setSoTimeout(15_000);
            long start = System.nanoTime();
            slow.getOutputStream().write("GET /health HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1));

            assertEquals(-1, slow.getInputStream().read());
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waited > 9_000 && waited < 12_000, "closed after " + waited + " ms");
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
