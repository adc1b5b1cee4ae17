package bench.catalog.config;

/** An environment variable that is missing or malformed: its message is the one line start-up prints. */
public final class InvalidSettingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidSettingException(String message) {
        super(message);
    }
}
