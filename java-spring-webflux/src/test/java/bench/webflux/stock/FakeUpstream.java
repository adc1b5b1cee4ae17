package bench.webflux.stock;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A stock upstream scripted per item id, on a port of its own: the JDK's HTTP server, whose
 * blocking handlers run on virtual threads of its own, away from the event loops under test. An
 * id without a script is a 404, as the real upstream answers an item it does not know.
 */
final class FakeUpstream {

	/** What the fake does with {@code GET /stock/{id}}. */
	sealed interface Answer {

		/** This status and body, after {@code delayMillis}. */
		record Http(int status, String contentType, String body, long delayMillis) implements Answer {
		}

		/** A 302 to another path of the upstream, which a client that follows redirects would read. */
		record Redirect(String location) implements Answer {
		}

		/** Headers that promise a longer body than the few bytes sent before the connection closes. */
		record CloseMidway() implements Answer {
		}

	}

	record Asked(String path, String accept) {
	}

	private final HttpServer server;

	private final Map<String, Answer> scripts = new ConcurrentHashMap<>();

	private final List<Asked> asked = new CopyOnWriteArrayList<>();

	private FakeUpstream(HttpServer server) {
		this.server = server;
	}

	static FakeUpstream start() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		FakeUpstream fake = new FakeUpstream(server);
		server.createContext("/stock/", fake::handle);
		server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
		server.start();
		return fake;
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	void script(String id, Answer answer) {
		this.scripts.put(id, answer);
	}

	void json(String id, int status, String body) {
		script(id, new Answer.Http(status, "application/json", body, 0));
	}

	/** The requests for one item id, in the order they came. */
	List<Asked> asked(String id) {
		return this.asked.stream().filter(request -> request.path().equals("/stock/" + id)).toList();
	}

	void stop() {
		this.server.stop(0);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getRawPath();
			this.asked.add(new Asked(path, exchange.getRequestHeaders().getFirst("Accept")));
			Answer answer = this.scripts.getOrDefault(path.substring("/stock/".length()),
					new Answer.Http(404, "application/json", "{\"detail\": \"no such item\"}", 0));
			switch (answer) {
				case Answer.Http http -> send(exchange, http);
				case Answer.Redirect redirect -> {
					exchange.getResponseHeaders().set("Location", redirect.location());
					exchange.sendResponseHeaders(302, -1);
				}
				case Answer.CloseMidway _ -> {
					exchange.getResponseHeaders().set("Content-Type", "application/json");
					exchange.sendResponseHeaders(200, 100);
					exchange.getResponseBody().write("{\"quan".getBytes(StandardCharsets.US_ASCII));
					exchange.getResponseBody().flush();
					// Closing short of the promised length makes the JDK's server drop the connection.
				}
			}
		}
		catch (IOException ex) {
			// the connection went, as this fake or the client under test meant it to
		}
	}

	private static void send(HttpExchange exchange, Answer.Http answer) throws IOException {
		if (answer.delayMillis() > 0) {
			try {
				Thread.sleep(answer.delayMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", answer.contentType());
		exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
