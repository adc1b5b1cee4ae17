package bench.catalog.http;

import bench.catalog.errors.FieldError;
import bench.catalog.errors.InvalidFieldsException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import jakarta.ws.rs.BadRequestException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A parsed request body to its request record, with every invalid field in one 422: first the
 * JSON type of each member ({@link JsonFields}), then the record's Bean Validation constraints
 * for the members whose type was right. By the time this runs, {@link JsonBodies} has answered
 * 415 and 413, and Jackson 400 for a body that is not JSON.
 */
public final class RequestBodies {

    private final Validator validator;

    @Inject
    public RequestBodies(Validator validator) {
        this.validator = validator;
    }

    <T> T read(JsonNode body, Function<JsonFields, T> reader) {
        if (body == null) {
            // Jackson's provider reads an empty body as no entity at all.
            throw new BadRequestException("request body is empty: expected JSON");
        }
        if (!body.isObject()) {
            throw new InvalidFieldsException("request body must be a JSON object",
                    List.of(new FieldError("", "must be a JSON object")));
        }
        JsonFields fields = new JsonFields(body);
        T request = reader.apply(fields);
        Map<String, String> errors = new LinkedHashMap<>(fields.errors());
        for (ConstraintViolation<T> violation : validator.validate(request)) {
            errors.putIfAbsent(violation.getPropertyPath().toString(), violation.getMessage());
        }
        if (!errors.isEmpty()) {
            List<String> invalid = fields.names().stream().filter(errors::containsKey).toList();
            throw new InvalidFieldsException("request body has invalid fields: " + String.join(", ", invalid),
                    invalid.stream().map(name -> new FieldError(name, errors.get(name))).toList());
        }
        return request;
    }
}
