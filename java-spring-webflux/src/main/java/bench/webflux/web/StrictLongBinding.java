package bench.webflux.web;

import java.beans.PropertyEditorSupport;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Path ids and query parameters bound to {@code long}/{@code Long} accept base-10 signed 64-bit
 * integers only. Spring's default number conversion trims whitespace, decodes {@code 0x10} and
 * {@code #10} as hex, and turns an empty {@code ?page=} into an absent one; the API answers 400.
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
