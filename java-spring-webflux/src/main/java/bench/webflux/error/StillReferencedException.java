package bench.webflux.error;

import java.io.Serial;

/** A row cannot go while other rows still refer to it (a category that still has items). */
public class StillReferencedException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public StillReferencedException(String detail) {
		super(detail, null, false, false);
	}

}
