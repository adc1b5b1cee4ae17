import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * Plain Reactor Netty (no Spring) with three GETs pipelined in one write, one of them with
 * {@code Connection: close}. RFC 9112 (9.3.2, 9.6) asks for every request up to the closing one to
 * be answered in order, then the connection closed. Each answer is sent a few milliseconds later
 * from a timer's thread, as WebFlux answers from its database driver's thread, so that all three
 * requests are read before the first answer is written. Prints what came back; exits 1 if any
 * request that should have been answered was not. measurements/pipelined-close.sh runs it.
 */
public final class PipelinedClose {

	private static final int REQUESTS = 3;

	public static void main(String[] args) throws IOException {
		DisposableServer server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route(routes -> routes.get("/{n}", (request, response) -> Mono.delay(Duration.ofMillis(5))
				.then(Mono.defer(() -> response.header("Content-Length", "1").sendString(Mono.just(request.param("n"))).then()))))
			.bindNow();
		System.out.printf("Reactor Netty %s, reactor.netty.http.server.lastFlushWhenNoRead=%s%n",
				HttpServer.class.getPackage().getImplementationVersion(),
				System.getProperty("reactor.netty.http.server.lastFlushWhenNoRead", "false"));
		boolean faulty = false;
		try {
			for (int closeAt : new int[] { -1, REQUESTS - 1, 1 }) {
				List<String> answers = pipelined(server.port(), closeAt);
				int expected = closeAt < 0 ? REQUESTS : closeAt + 1;
				boolean right = answers.equals(List.of("1", "2", "3").subList(0, expected));
				faulty |= !right;
				System.out.printf("%-36s answered %s, expected %s: %s%n",
						closeAt < 0 ? "no Connection: close:" : "Connection: close on request " + (closeAt + 1) + " of 3:",
						answers, List.of("1", "2", "3").subList(0, expected), right ? "right" : "WRONG");
			}
		}
		finally {
			server.disposeNow();
		}
		System.exit(faulty ? 1 : 0);
	}

	/** The bodies answered to GET /1, /2 and /3 written at once, read until the server closes. */
	private static List<String> pipelined(int port, int closeAt) throws IOException {
		StringBuilder requests = new StringBuilder();
		for (int n = 0; n < REQUESTS; n++) {
			requests.append("GET /").append(n + 1).append(" HTTP/1.1\r\nHost: repro\r\n")
				.append(n == closeAt ? "Connection: close\r\n" : "").append("\r\n");
		}
		List<String> answers = new ArrayList<>();
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(2_000);
			socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.US_ASCII));
			InputStream in = socket.getInputStream();
			String body;
			while (answers.size() < REQUESTS && (body = readBody(in)) != null) {
				answers.add(body);
			}
		}
		catch (SocketTimeoutException ignored) {
			// Without a close the connection stays open: what came before the timeout is the answer.
		}
		return answers;
	}

	/** One answer's body (its head says its length), or null at the end of the connection. */
	private static String readBody(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				return null;
			}
			head.write(b);
		}
		int length = 0;
		for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
			if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
				length = Integer.parseInt(line.substring("content-length:".length()).trim());
			}
		}
		return new String(in.readNBytes(length), StandardCharsets.UTF_8);
	}

}
