package bench.datarest.stock;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A stock service started by the tests, on the JDK's own HTTP server: each item id's answer is
 * scripted by the test that uses it (an id no other test uses), every request is recorded, and an
 * id nobody scripted is a 404, as the real stock service answers an unknown item.
 */
final class FakeStockService {

	/** What the fake does with one request. */
	sealed interface Answer {
	}

	record Respond(int status, String contentType, String body, Map<String, String> headers) implements Answer {
	}

	/** Close the connection without a byte of answer. */
	record Close() implements Answer {
	}

	/** Read the request and answer nothing, until the JVM ends. */
	record Hang() implements Answer {
	}

	/** Send a 200's headers and the first half of its body, then nothing, until the JVM ends. */
	record Stall(String body) implements Answer {
	}

	/** One request the client sent. */
	record Request(String method, String path, String accept) {
	}

	private static final Respond NO_RECORD = new Respond(404, "application/json",
			"{\"status\":404,\"detail\":\"no such item\"}", Map.of());

	private final Map<String, Answer> scripts = new ConcurrentHashMap<>();

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	private final CountDownLatch never = new CountDownLatch(1);

	private final AtomicLong ids = new AtomicLong(1_000_000_000_000L);

	private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

	private final int port;

	private HttpServer server;

	/** Listens on a free port of the loopback interface from now until the JVM ends. */
	FakeStockService() {
		this.server = listen(0);
		this.port = this.server.getAddress().getPort();
	}

	private HttpServer listen(int on) {
		HttpServer listening;
		try {
			listening = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), on), 256);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		listening.createContext("/", this::handle);
		listening.setExecutor(this.executor);
		listening.start();
		return listening;
	}

	String url() {
		return "http://127.0.0.1:" + this.port;
	}

	long newId() {
		return this.ids.incrementAndGet();
	}

	void script(long itemId, Answer answer) {
		this.scripts.put(Long.toString(itemId), answer);
	}

	void json(long itemId, int status, String body) {
		script(itemId, new Respond(status, "application/json", body, Map.of()));
	}

	void quantity(long itemId, String quantity) {
		json(itemId, 200, "{\"itemId\":" + itemId + ",\"quantity\":" + quantity + ",\"warehouse\":\"test\"}");
	}

	List<Request> requests(long itemId) {
		return this.requests.stream().filter(request -> request.path().equals("/stock/" + itemId)).toList();
	}

	int requestCount() {
		return this.requests.size();
	}

	/** Runs the block with nothing listening on the port and every connection closed. */
	void refusing(Runnable block) {
		this.server.stop(0);
		try {
			block.run();
		}
		finally {
			this.server = listen(this.port);
		}
	}

	/**
	 * Runs the block with a listener on the port that accepts nothing and whose queue of
	 * connections is full, so that the kernel drops the next connection's SYN: a connect that
	 * neither succeeds nor fails, until the client's connect timeout.
	 */
	void unaccepting(Runnable block) {
		this.server.stop(0);
		List<Socket> queued = new ArrayList<>();
		try (ServerSocket listener = new ServerSocket(this.port, 1, InetAddress.getLoopbackAddress())) {
			try {
				while (true) {
					Socket socket = new Socket();
					queued.add(socket);
					socket.connect(listener.getLocalSocketAddress(), 200);
				}
			}
			catch (SocketTimeoutException full) {
				block.run();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			for (Socket socket : queued) {
				try {
					socket.close();
				}
				catch (IOException ex) {
					// closing what the test opened: nothing to do
				}
			}
			this.server = listen(this.port);
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getRawPath();
		this.requests.add(new Request(exchange.getRequestMethod(), path,
				String.valueOf(exchange.getRequestHeaders().getFirst("Accept"))));
		Answer answer = this.scripts.getOrDefault(path.substring(path.lastIndexOf('/') + 1), NO_RECORD);
		switch (answer) {
			case Close _ -> exchange.close();
			case Hang _ -> closeAtTheEnd(exchange);
			case Stall stall -> {
				byte[] body = stall.body().getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, body.length);
				OutputStream out = exchange.getResponseBody();
				out.write(body, 0, body.length / 2);
				out.flush();
				closeAtTheEnd(exchange);
			}
			case Respond respond -> {
				byte[] body = respond.body().getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", respond.contentType());
				respond.headers().forEach(exchange.getResponseHeaders()::set);
				exchange.sendResponseHeaders(respond.status(), (body.length == 0) ? -1 : body.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(body);
				}
			}
		}
	}

	/** Keeps the exchange open, answering nothing more, until the JVM ends (or a minute passes). */
	private void closeAtTheEnd(HttpExchange exchange) {
		try {
			this.never.await(1, TimeUnit.MINUTES);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		exchange.close();
	}

}
