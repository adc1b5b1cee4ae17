package bench.spring.web;

import java.io.IOException;
import java.io.Serial;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps request bodies at 1 MiB, declared or chunked. Tomcat limits form posts only. The limit
 * trips while the body is read, so a wrong route, method, path id or Content-Type answers first,
 * as the API orders its errors; the read then fails and the error handler answers 413.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class BodySizeLimitFilter extends OncePerRequestFilter {

	public static final long MAX_BYTES = 1024 * 1024;

	/** True when reading the body failed because it is larger than {@link #MAX_BYTES}. */
	public static boolean exceeded(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof BodyTooLargeException) {
				return true;
			}
		}
		return false;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		chain.doFilter(new LimitedRequest(request), response);
	}

	private static final class LimitedRequest extends HttpServletRequestWrapper {

		private ServletInputStream stream;

		LimitedRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (this.stream == null) {
				this.stream = new LimitedInputStream(super.getInputStream(), getContentLengthLong());
			}
			return this.stream;
		}

	}

	private static final class LimitedInputStream extends ServletInputStream {

		private final ServletInputStream in;

		private final long declaredLength;

		private long count;

		LimitedInputStream(ServletInputStream in, long declaredLength) {
			this.in = in;
			this.declaredLength = declaredLength;
		}

		@Override
		public int read() throws IOException {
			checkDeclaredLength();
			int b = this.in.read();
			if (b >= 0) {
				count(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			checkDeclaredLength();
			// Never pull more than one byte past the limit out of the connection.
			int n = this.in.read(buffer, offset, (int) Math.min(length, MAX_BYTES - this.count + 1));
			if (n > 0) {
				count(n);
			}
			return n;
		}

		private void checkDeclaredLength() throws BodyTooLargeException {
			if (this.declaredLength > MAX_BYTES) {
				throw new BodyTooLargeException();
			}
		}

		private void count(int n) throws BodyTooLargeException {
			this.count += n;
			if (this.count > MAX_BYTES) {
				throw new BodyTooLargeException();
			}
		}

		@Override
		public boolean isFinished() {
			return this.in.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.in.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.in.setReadListener(listener);
		}

	}

	private static final class BodyTooLargeException extends IOException {

		@Serial
		private static final long serialVersionUID = 1L;

		BodyTooLargeException() {
			super("request body larger than " + MAX_BYTES + " bytes", null);
		}

	}

}
