package bench.datarest.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Request bodies of at most 1 MiB, the API dialect's limit (spec/hal.md). Spring Data REST and
 * Tomcat have none for JSON: Jackson read a 64 MiB {@code name} whole, and the 400 echoed it back
 * in {@code invalidValue}, so one such request, or a dozen of 16 MB at once, ended the JVM on
 * {@code OutOfMemoryError}. A declared length over the limit is a 413 before a byte of the body is
 * read; a chunked body is read here up to one byte past the limit, a 413 if it gets there, else
 * handed on from memory. A body of declared length within the limit passes untouched: Tomcat
 * delivers no more than it declares. It runs after BodyContentTypeFilter, so a type that is not
 * one concrete media type is still a 415 first.
 */
@Component
class BodySizeLimitFilter extends OncePerRequestFilter {

	static final int MAX_BYTES = 1024 * 1024;

	private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH");

	private static final String TOO_LARGE = "{\"message\":\"the request body is larger than 1 MiB (1048576 bytes)\"}";

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
		if (declared >= 0) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body = request.getInputStream().readNBytes(MAX_BYTES + 1);
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
