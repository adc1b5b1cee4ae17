package bench.spring.web;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A request whose Content-Type is a wildcard ({@code *}{@code /*}, {@code application/*}) is
 * treated as having none: a wildcard names no media type, so a write answers 415 and a read
 * ignores it. Left in place, Spring MVC fails on it with an IllegalArgumentException (a 500)
 * before it looks at the converters: {@code ServletServerHttpRequest.getHeaders()} adds the
 * request's charset to the Content-Type, and {@code HttpHeaders.setContentType} refuses a
 * wildcard (spring-framework#27957).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class WildcardContentTypeFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		chain.doFilter(isWildcard(request.getContentType()) ? new WithoutContentType(request) : request, response);
	}

	private static boolean isWildcard(String contentType) {
		if (contentType == null || contentType.indexOf('*') < 0) {
			return false;
		}
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return type.isWildcardType() || type.isWildcardSubtype();
		}
		catch (InvalidMediaTypeException ex) {
			return false; // Spring answers an unparseable Content-Type with 415 itself
		}
	}

	private static final class WithoutContentType extends HttpServletRequestWrapper {

		WithoutContentType(HttpServletRequest request) {
			super(request);
		}

		@Override
		public String getContentType() {
			return null;
		}

		@Override
		public String getHeader(String name) {
			return isContentType(name) ? null : super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			return isContentType(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			return Collections.enumeration(
					Collections.list(super.getHeaderNames()).stream().filter(name -> !isContentType(name)).toList());
		}

		private static boolean isContentType(String name) {
			return HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name);
		}

	}

}
