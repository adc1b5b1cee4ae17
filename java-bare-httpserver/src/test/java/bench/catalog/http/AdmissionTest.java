package bench.catalog.http;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionTest {

    @Test
    void runsOnAFreePlaceQueuesUpToItsBoundAndRefusesBeyondIt() throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var admission = new Admission(1, 1, 1, threads);
            var holding = new CountDownLatch(1);
            var letGo = new CountDownLatch(1);
            var first = new CompletableFuture<Boolean>();
            var queued = new CompletableFuture<Boolean>();
            var beyond = new CompletableFuture<Boolean>();

            admission.execute(() -> {
                first.complete(Admission.refused());
                holding.countDown();
                await(letGo);
            });
            holding.await();
            admission.execute(() -> queued.complete(Admission.refused()));
            while (admission.queued() == 0) {
                Thread.sleep(1);
            }
            admission.execute(() -> beyond.complete(Admission.refused()));

            assertTrue(beyond.get(5, TimeUnit.SECONDS), "the third exchange is refused at once");
            assertFalse(queued.isDone(), "the second waits for the place");
            letGo.countDown();
            assertFalse(first.get(5, TimeUnit.SECONDS));
            assertFalse(queued.get(5, TimeUnit.SECONDS), "the second runs when the place is free");
        }
    }

    @Test
    void whenRefusalsAreAllTakenTheNextWaitsAfterAll() throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var admission = new Admission(0, 0, 1, threads);
            var refusing = new CountDownLatch(1);
            var letGo = new CountDownLatch(1);
            var next = new CompletableFuture<Boolean>();

            admission.execute(() -> {
                refusing.countDown();
                await(letGo);
            });
            refusing.await();
            admission.execute(() -> next.complete(Admission.refused()));
            while (admission.queued() == 0) {
                Thread.sleep(1);
            }
            assertFalse(next.isDone(), "held back, as the one refusal is taken");
            letGo.countDown();
            // No place ever comes free: stopping the threads ends its wait.
            threads.shutdownNow();
        }
    }

    @Test
    void aRefusedExchangeIsAnswered503AndItsConnectionClosed() throws Exception {
        var server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
                var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            server.setExecutor(new Admission(0, 0, 1, threads));
            server.createContext("/", new Router(false).get("/things", exchange -> exchange.sendNoContent()));
            server.start();
            var response = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/things")).build(),
                    BodyHandlers.ofString());
            assertEquals(503, response.statusCode());
            assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(response.body().contains("\"detail\":\"the server is busy, try again later\""), response.body());
            assertEquals("close", response.headers().firstValue("Connection").orElse(""));
        } finally {
            server.stop(0);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }
}
