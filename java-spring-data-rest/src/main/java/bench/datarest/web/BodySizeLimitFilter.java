package bench.datarest.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.Semaphore;

import bench.datarest.error.ServerBusyException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Request bodies of at most 1 MiB, the API dialect's limit (spec/hal.md), and of at most
 * {@code app.request-bodies.in-flight} bytes together among those being read at once (README.md,
 * "Limits"). Spring Data REST and Tomcat have none for JSON: Jackson read a 64 MiB {@code name}
 * whole, and the 400 echoed it back in {@code invalidValue}, so one such request, or a dozen of
 * 16 MB at once, ended the JVM on {@code OutOfMemoryError}. A declared length over the limit is a
 * 413 before a byte of the body is read. Any other body first takes room among the bodies in
 * flight, its declared length or the limit when it is chunked, and gives it back when the request
 * ends; without room it is a 503, through the error map ({@code UnavailableHandler}), before a
 * byte of it is read. A chunked body is then read here up to one byte past the limit, a 413 if it
 * gets there, else handed on from memory. A body of declared length within the limit passes
 * untouched: Tomcat delivers no more than it declares. It runs after BodyContentTypeFilter, so a
 * type that is not one concrete media type is still a 415 first.
 */
@Component
class BodySizeLimitFilter extends OncePerRequestFilter {

	static final int MAX_BYTES = 1024 * 1024;

	private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH");

	private static final String TOO_LARGE = "{\"message\":\"the request body is larger than 1 MiB (1048576 bytes)\"}";

	/** Bytes of the bodies being read, one permit a byte. */
	private final Semaphore room;

	/** Spring MVC's error map, which answers the 503 as it answers an outage's. */
	private final HandlerExceptionResolver errors;

	BodySizeLimitFilter(@Value("${app.request-bodies.in-flight}") DataSize inFlight,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver errors) {
		this.room = new Semaphore(Math.toIntExact(inFlight.toBytes()));
		this.errors = errors;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !WITH_BODY.contains(request.getMethod());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long declared = request.getContentLengthLong();
		if (declared > MAX_BYTES) {
			tooLarge(response);
			return;
		}
		int size = (declared < 0) ? MAX_BYTES : (int) declared;
		if (!this.room.tryAcquire(size)) {
			this.errors.resolveException(request, response, null, new ServerBusyException());
			return;
		}
		try {
			filterWithin(request, response, chain, declared);
		}
		finally {
			this.room.release(size);
		}
	}

	private static void filterWithin(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			long declared) throws ServletException, IOException {
		if (declared >= 0) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body;
		try {
			body = request.getInputStream().readNBytes(MAX_BYTES + 1);
		}
		catch (IOException ex) {
			if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
				// The client left while its chunked body was read (Tomcat's ClientAbortException), and
				// Tomcat has answered it itself: not a fault here, which the servlet container would
				// log as one, with its stack trace.
				return;
			}
			throw ex;
		}
		if (body.length > MAX_BYTES) {
			tooLarge(response);
			return;
		}
		chain.doFilter(new ReadRequest(request, body), response);
	}

	private static void tooLarge(HttpServletResponse response) throws IOException {
		response.setStatus(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8);
		response.getWriter().write(TOO_LARGE);
	}

	/** A chunked request whose body has been read into memory, served from there. */
	private static final class ReadRequest extends HttpServletRequestWrapper {

		private final BodyStream body;

		ReadRequest(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = new BodyStream(body);
		}

		@Override
		public ServletInputStream getInputStream() {
			return this.body;
		}

		@Override
		public int getContentLength() {
			return this.body.length;
		}

		@Override
		public long getContentLengthLong() {
			return this.body.length;
		}

	}

	private static final class BodyStream extends ServletInputStream {

		private final ByteArrayInputStream in;

		private final int length;

		BodyStream(byte[] body) {
			this.in = new ByteArrayInputStream(body);
			this.length = body.length;
		}

		@Override
		public int read() {
			return this.in.read();
		}

		@Override
		public int read(byte[] buffer, int offset, int length) {
			return this.in.read(buffer, offset, length);
		}

		@Override
		public boolean isFinished() {
			return this.in.available() == 0;
		}

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setReadListener(ReadListener listener) {
			throw new UnsupportedOperationException("the body has already been read");
		}

	}

}
