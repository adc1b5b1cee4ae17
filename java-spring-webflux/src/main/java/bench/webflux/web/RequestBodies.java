package bench.webflux.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import bench.webflux.error.InvalidFieldsException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Component;

/**
 * Turns a parsed JSON body into a request record and validates it, collecting every invalid field
 * into one 422: first the JSON types ({@link JsonFields}), then the record's Bean Validation
 * constraints for the fields whose type was right. Spring has already answered 415 for a wrong
 * Content-Type and 400 for a body that is not JSON by the time this runs.
 */
@Component
public class RequestBodies {

	private final Validator validator;

	public RequestBodies(Validator validator) {
		this.validator = validator;
	}

	public <T> T read(JsonNode body, Function<JsonFields, T> reader) {
		if (body == null || !body.isObject()) {
			throw InvalidFieldsException.of("", "the body must be a JSON object");
		}
		JsonFields fields = new JsonFields(body);
		T request = reader.apply(fields);
		Map<String, String> errors = new LinkedHashMap<>(fields.errors());
		for (ConstraintViolation<T> violation : this.validator.validate(request)) {
			errors.putIfAbsent(violation.getPropertyPath().toString(), violation.getMessage());
		}
		if (!errors.isEmpty()) {
			throw InvalidFieldsException.of(errors);
		}
		return request;
	}

}
