package bench.spring.web;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Request bodies are JSON when their Content-Type is {@code application/json}, with or without
 * parameters, and nothing else is (415). Spring's Jackson converter also reads
 * {@code application/*+json} ({@code json-patch+json}, {@code problem+json}, …), so it is
 * replaced by one that reads {@code application/json} only; what it writes is unchanged (problem
 * JSON included). Runs after Boot's own configuration, whose JSON converter it replaces.
 */
@Configuration(proxyBeanMethods = false)
public class JsonContentType implements WebMvcConfigurer {

	private final JsonMapper mapper;

	JsonContentType(JsonMapper mapper) {
		this.mapper = mapper;
	}

	/** True for {@code application/json} with any parameters: what a request body may be. */
	public static boolean isJson(MediaType type) {
		return type != null && MediaType.APPLICATION_JSON.equalsTypeAndSubtype(type);
	}

	/** {@link #isJson(MediaType)} for a Content-Type header as sent; false when it does not parse. */
	public static boolean isJson(String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			return isJson(MediaType.parseMediaType(contentType));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	@Override
	public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
		builder.withJsonConverter(new JacksonJsonHttpMessageConverter(this.mapper) {

			@Override
			public boolean canRead(ResolvableType type, MediaType mediaType) {
				return isJson(mediaType) && super.canRead(type, mediaType);
			}

		});
	}

}
