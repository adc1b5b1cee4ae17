package bench.datarest.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A POST, PUT or PATCH whose {@code Content-Type} is not one concrete media type ({@code *}{@code /*},
 * {@code application/*}, {@code ;;}, an unknown charset) is a 415 before it reaches Spring Data REST,
 * which would answer it with a 500: it reads the type through Spring's {@code HttpHeaders}, which
 * refuses a wildcard once Boot's encoding filter has added a charset (spring-framework#27957) and
 * throws on a malformed type. Only fuzzers send these; every other request passes untouched, and a
 * concrete type Spring Data REST cannot read stays its own answer (400).
 */
@Component
// Ahead of BodySizeLimitFilter: an unusable type is a 415 whatever the body's size.
@Order(Ordered.LOWEST_PRECEDENCE - 1)
class BodyContentTypeFilter extends OncePerRequestFilter {

	private static final Set<String> WITH_BODY = Set.of("POST", "PUT", "PATCH");

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return !WITH_BODY.contains(request.getMethod()) || request.getContentType() == null;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (isConcrete(request.getContentType())) {
			chain.doFilter(request, response);
			return;
		}
		response.setStatus(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8);
		response.getWriter().write("{\"message\":\"Content-Type is not one concrete media type\"}");
	}

	static boolean isConcrete(String contentType) {
		try {
			return MediaType.parseMediaType(contentType).isConcrete();
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

}
