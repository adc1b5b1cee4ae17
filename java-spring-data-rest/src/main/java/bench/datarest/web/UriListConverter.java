package bench.datarest.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.springframework.data.rest.webmvc.convert.UriListHttpMessageConverter;
import org.springframework.hateoas.CollectionModel;
import org.springframework.hateoas.Link;
import org.springframework.hateoas.Links;
import org.springframework.hateoas.RepresentationModel;
import org.springframework.http.HttpInputMessage;

/**
 * Spring Data REST's reader of {@code text/uri-list} bodies ({@code PUT /items/{id}/category}),
 * except that it skips blank lines and RFC 2483's comment lines ({@code # …}): Spring Data REST
 * makes a link of every line, and an empty one fails as a 500 ("Href must not be null or empty").
 * Whatever is left is judged by Spring Data REST as before (one link, or a 400).
 */
public class UriListConverter extends UriListHttpMessageConverter {

	@Override
	public RepresentationModel<?> read(Class<? extends RepresentationModel<?>> type, HttpInputMessage input)
			throws IOException {
		try (BufferedReader reader = new BufferedReader(new InputStreamReader(input.getBody(), StandardCharsets.UTF_8))) {
			Links links = reader.lines()
				.map(String::strip)
				.filter((line) -> !line.isEmpty() && !line.startsWith("#"))
				.map(Link::of)
				.reduce(Links.NONE, Links::and, Links::and);
			return CollectionModel.empty(links);
		}
	}

}
