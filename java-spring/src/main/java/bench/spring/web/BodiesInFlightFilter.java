package bench.spring.web;

import java.io.IOException;
import java.io.Serial;
import java.util.concurrent.Semaphore;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the request bodies being read at once to {@code app.request-bodies.in-flight} bytes
 * together, so that however many arrive at once the heap holds a bounded number of them
 * (README.md, "Limits"). A body takes room for its declared length, or for the 1 MiB limit when it
 * is chunked, as it is first read, so a wrong route, method, path id or Content-Type answers first.
 * When there is no room the read fails at once, before a byte of the body is read, and the error
 * map answers 503; Tomcat then drops what the client still sends of the body (up to its
 * max-swallow-size), so that the client reads the answer, and closes the connection, as it does
 * after any 503. The room is given back when the request ends.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class BodiesInFlightFilter extends OncePerRequestFilter {

	/** Bytes of the bodies being read, one permit a byte. */
	private final Semaphore room;

	public BodiesInFlightFilter(@Value("${app.request-bodies.in-flight}") DataSize inFlight) {
		this.room = new Semaphore(Math.toIntExact(inFlight.toBytes()));
	}

	/** True when reading the body was refused because the bodies in flight left no room for it. */
	public static boolean refused(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof NoRoomException) {
				return true;
			}
		}
		return false;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		BudgetedRequest budgeted = new BudgetedRequest(request);
		try {
			chain.doFilter(budgeted, response);
		}
		finally {
			this.room.release(budgeted.taken);
		}
	}

	private final class BudgetedRequest extends HttpServletRequestWrapper {

		private int taken;

		private boolean admitted;

		BudgetedRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (!this.admitted) {
				long declared = getContentLengthLong();
				int size = (int) ((declared < 0) ? BodySizeLimitFilter.MAX_BYTES
						: Math.min(declared, BodySizeLimitFilter.MAX_BYTES));
				if (!BodiesInFlightFilter.this.room.tryAcquire(size)) {
					throw new NoRoomException();
				}
				this.taken = size;
				this.admitted = true;
			}
			return super.getInputStream();
		}

	}

	private static final class NoRoomException extends IOException {

		@Serial
		private static final long serialVersionUID = 1L;

		NoRoomException() {
			super("no room for another request body", null);
		}

	}

}
