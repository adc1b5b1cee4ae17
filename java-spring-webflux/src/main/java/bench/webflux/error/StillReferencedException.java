package bench.webflux.error;

/** A row cannot go while other rows still refer to it (a category that still has items). */
public class StillReferencedException extends RuntimeException {

	public StillReferencedException(String detail) {
		super(detail, null, false, false);
	}

}
