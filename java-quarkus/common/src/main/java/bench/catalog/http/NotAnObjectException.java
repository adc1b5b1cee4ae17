package bench.catalog.http;

/** A write body that is JSON but not an object ({@code null}, {@code []}, {@code "x"}, {@code 42}): a 422 on the body. */
public final class NotAnObjectException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public NotAnObjectException() {
        super("the body must be a JSON object");
    }
}
