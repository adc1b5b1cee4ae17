package bench.datarest.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;

class TextValidator implements ConstraintValidator<Text, String> {

	private int max;

	private boolean required;

	@Override
	public void initialize(Text text) {
		this.max = text.max();
		this.required = text.required();
	}

	@Override
	public boolean isValid(String value, ConstraintValidatorContext context) {
		String problem = problem(value);
		if (problem == null) {
			return true;
		}
		context.disableDefaultConstraintViolation();
		context.buildConstraintViolationWithTemplate(problem).addConstraintViolation();
		return false;
	}

	private String problem(String value) {
		if (value == null) {
			return this.required ? "is required" : null;
		}
		if (this.required && isBlank(value)) {
			return "must not be blank";
		}
		if (value.indexOf('\0') >= 0) {
			return "must not contain U+0000";
		}
		if (value.codePointCount(0, value.length()) > this.max) {
			return "must be at most " + this.max + " characters";
		}
		return null;
	}

	private static boolean isBlank(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
				return false;
			}
		}
		return true;
	}

}
