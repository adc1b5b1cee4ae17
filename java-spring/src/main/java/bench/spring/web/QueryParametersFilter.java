package bench.spring.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Request parameters are the query string, read the way browsers and the other stacks read it
 * (WHATWG {@code application/x-www-form-urlencoded} parsing), which never fails: empty pairs are
 * skipped, an invalid percent escape stays as it is, bytes that are not UTF-8 become U+FFFD.
 * Unknown parameters (an empty name included) are then simply never asked for, and a known one
 * that does not decode to an integer is a 400 like any other bad value.
 * <p>
 * Tomcat's own parser refuses the whole query string instead: since Tomcat 11 (Servlet 6.1) any
 * {@code getParameter} call throws {@code InvalidParameterException} when one pair has an empty
 * name ({@code ?=3}, {@code &=x}), a malformed escape ({@code %zz}) or bytes that are not UTF-8,
 * whatever the pair's name. The API takes no form bodies, so the body is never read for
 * parameters either.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class QueryParametersFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		chain.doFilter(new QueryParametersRequest(request), response);
	}

	/** The pairs of a query string in order, names and values decoded; a name may repeat. */
	static Map<String, String[]> parse(String query) {
		Map<String, List<String>> pairs = new LinkedHashMap<>();
		if (query != null) {
			int start = 0;
			while (start <= query.length()) {
				int end = query.indexOf('&', start);
				if (end < 0) {
					end = query.length();
				}
				if (end > start) {
					int nameEnd = start;
					while (nameEnd < end && query.charAt(nameEnd) != '=') {
						nameEnd++;
					}
					String value = nameEnd < end ? decode(query.substring(nameEnd + 1, end)) : "";
					pairs.computeIfAbsent(decode(query.substring(start, nameEnd)), name -> new ArrayList<>(1)).add(value);
				}
				start = end + 1;
			}
		}
		Map<String, String[]> parameters = new LinkedHashMap<>();
		pairs.forEach((name, values) -> parameters.put(name, values.toArray(String[]::new)));
		return Collections.unmodifiableMap(parameters);
	}

	/** '+' is a space, %XX a byte, anything else stays; the bytes are then read as UTF-8. */
	private static String decode(String text) {
		if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
			return text;
		}
		byte[] in = text.getBytes(StandardCharsets.UTF_8);
		byte[] out = new byte[in.length];
		int n = 0;
		for (int i = 0; i < in.length; i++) {
			byte b = in[i];
			int high;
			int low;
			if (b == '+') {
				out[n++] = ' ';
			}
			else if (b == '%' && i + 2 < in.length && (high = Character.digit(in[i + 1], 16)) >= 0
					&& (low = Character.digit(in[i + 2], 16)) >= 0) {
				out[n++] = (byte) (high << 4 | low);
				i += 2;
			}
			else {
				out[n++] = b;
			}
		}
		return new String(out, 0, n, StandardCharsets.UTF_8);
	}

	private static final class QueryParametersRequest extends HttpServletRequestWrapper {

		private Map<String, String[]> parameters;

		QueryParametersRequest(HttpServletRequest request) {
			super(request);
		}

		@Override
		public Map<String, String[]> getParameterMap() {
			if (this.parameters == null) {
				this.parameters = parse(getQueryString());
			}
			return this.parameters;
		}

		@Override
		public String getParameter(String name) {
			String[] values = getParameterMap().get(name);
			return values == null ? null : values[0];
		}

		@Override
		public String[] getParameterValues(String name) {
			String[] values = getParameterMap().get(name);
			return values == null ? null : values.clone();
		}

		@Override
		public Enumeration<String> getParameterNames() {
			return Collections.enumeration(getParameterMap().keySet());
		}

	}

}
