package bench.catalog.http;

/** A known path asked with a method it does not serve; {@code allow} lists those it does. */
final class MethodNotAllowedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String allow;

    MethodNotAllowedException(String allow) {
        super("this path serves " + allow, null, false, false);
        this.allow = allow;
    }

    String allow() {
        return allow;
    }
}
