package bench.webflux.web;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Reads the members of a JSON object by type, keeping one error per member whose JSON type is
 * wrong instead of stopping at the first, which is what binding straight to a record would do.
 * A member that is absent or {@code null} reads as {@code null}; Bean Validation judges that.
 */
public final class JsonFields {

	private final JsonNode object;

	private final Map<String, String> errors = new LinkedHashMap<>();

	JsonFields(JsonNode object) {
		this.object = object;
	}

	public String string(String name) {
		JsonNode node = member(name);
		if (node == null || node.isString()) {
			return node == null ? null : node.stringValue();
		}
		this.errors.put(name, "must be a string");
		return null;
	}

	/** A JSON number as its exact decimal value, trailing zeros dropped: 1.230 is 1.23. */
	public BigDecimal decimal(String name, String rule) {
		JsonNode node = member(name);
		if (node == null || node.isNumber()) {
			return node == null ? null : node.decimalValue().stripTrailingZeros();
		}
		this.errors.put(name, rule);
		return null;
	}

	/** A JSON number without a fractional part that fits a signed 64-bit integer. */
	public Long integer(String name, String rule) {
		JsonNode node = member(name);
		if (node == null) {
			return null;
		}
		if (node.isNumber()) {
			try {
				return node.decimalValue().longValueExact();
			}
			catch (ArithmeticException ex) {
				// a fraction, or beyond 64 bits: the rule says what is wanted
			}
		}
		this.errors.put(name, rule);
		return null;
	}

	Map<String, String> errors() {
		return this.errors;
	}

	private JsonNode member(String name) {
		JsonNode node = this.object.get(name);
		return node == null || node.isNull() ? null : node;
	}

}
