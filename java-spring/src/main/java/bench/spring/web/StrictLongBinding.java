package bench.spring.web;

import java.beans.PropertyEditorSupport;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Path ids and query parameters bound to {@code long}/{@code Long} are {@code [+-]?[0-9]+} in the
 * signed 64-bit range ({@code +5} and {@code 007} included). Spring's default number conversion
 * trims whitespace, decodes {@code 0x10} and {@code #10} as hex, takes any Unicode digit and turns
 * an empty {@code ?page=} into an absent one; each of those is a 400 here, through Spring's own
 * type-mismatch error.
 */
@ControllerAdvice
class StrictLongBinding {

	@InitBinder
	void registerStrictLongEditor(WebDataBinder binder) {
		binder.registerCustomEditor(long.class, new StrictLongEditor());
		binder.registerCustomEditor(Long.class, new StrictLongEditor());
	}

	private static final class StrictLongEditor extends PropertyEditorSupport {

		@Override
		public void setAsText(String text) {
			// Long.parseLong also takes non-ASCII digits; the API means 0-9 only.
			for (int i = 0; i < text.length(); i++) {
				char c = text.charAt(i);
				if ((c < '0' || c > '9') && !(i == 0 && (c == '-' || c == '+'))) {
					throw new IllegalArgumentException("not a base-10 integer: " + text);
				}
			}
			setValue(Long.parseLong(text));
		}

	}

}
