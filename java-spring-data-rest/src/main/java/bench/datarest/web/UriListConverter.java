package bench.datarest.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.rest.webmvc.convert.UriListHttpMessageConverter;
import org.springframework.hateoas.CollectionModel;
import org.springframework.hateoas.Link;
import org.springframework.hateoas.Links;
import org.springframework.hateoas.RepresentationModel;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageNotReadableException;

/**
 * Spring Data REST's reader of {@code text/uri-list} bodies ({@code PUT /items/{id}/category}),
 * with three refusals it lacks, each a 500 there and a 400 here:
 * <ul>
 * <li>blank lines and RFC 2483's comment lines ({@code # …}) are skipped, because Spring Data
 * REST makes a link of every line and an empty one fails ("Href must not be null or empty");</li>
 * <li>a line that is not a URI ({@code a{b}, {@code /categories/{id}}) is unreadable, because
 * Spring HATEOAS reads a link's {@code {…}} as a URI template and its expansion throws or leaves an
 * empty id;</li>
 * <li>a URI whose last path segment is empty ({@code /categories/}, {@code /}) is unreadable,
 * because Spring Data REST takes that segment as the id and fails converting an empty one.</li>
 * </ul>
 * Whatever is left is judged by Spring Data REST as before (one link, or a 400).
 */
public class UriListConverter extends UriListHttpMessageConverter {

	@Override
	public RepresentationModel<?> read(Class<? extends RepresentationModel<?>> type, HttpInputMessage input)
			throws IOException {
		List<String> lines;
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(input.getBody(), StandardCharsets.UTF_8))) {
			lines = reader.lines().map(String::strip).filter((line) -> !line.isEmpty() && !line.startsWith("#")).toList();
		}
		Links links = Links.NONE;
		for (String line : lines) {
			links = links.and(Link.of(requireResourceUri(line, input).toString()));
		}
		return CollectionModel.empty(links);
	}

	private static URI requireResourceUri(String line, HttpInputMessage input) {
		URI uri;
		try {
			uri = new URI(line);
		}
		catch (URISyntaxException ex) {
			throw new HttpMessageNotReadableException("text/uri-list: not a URI: " + ex.getMessage(), ex, input);
		}
		String path = uri.getRawPath();
		if (path == null || path.isEmpty() || path.endsWith("/")) {
			throw new HttpMessageNotReadableException("text/uri-list: " + line + " names no resource (its last path segment is empty)", input);
		}
		return uri;
	}

}
