package bench.webflux.error;

import java.io.Serial;
import java.util.List;
import java.util.Map;

/** A request body parsed as JSON but is not a valid representation (422), one entry per field. */
public class InvalidFieldsException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	private final transient List<FieldError> errors;

	public InvalidFieldsException(List<FieldError> errors) {
		super("invalid fields: " + errors.stream().map(FieldError::field).toList(), null, false, false);
		this.errors = List.copyOf(errors);
	}

	public static InvalidFieldsException of(Map<String, String> messagesByField) {
		return new InvalidFieldsException(messagesByField.entrySet().stream()
			.map(entry -> new FieldError(entry.getKey(), entry.getValue()))
			.toList());
	}

	public static InvalidFieldsException of(String field, String message) {
		return new InvalidFieldsException(List.of(new FieldError(field, message)));
	}

	public List<FieldError> errors() {
		return this.errors;
	}

	/** {@code field} is the JSON property name, or {@code ""} when the body itself is at fault. */
	public record FieldError(String field, String message) {
	}

}
