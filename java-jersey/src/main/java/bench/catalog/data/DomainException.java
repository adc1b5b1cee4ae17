package bench.catalog.data;

/**
 * What the data layer tells its callers about a write or a lookup that the database refused or
 * found nothing for, and about a stock upstream that had no record or no usable answer. Sealed,
 * so that the error map answers every kind and the compiler says so when a new kind has no answer
 * yet. Its message is meant for the client of the API as is.
 */
public abstract sealed class DomainException extends RuntimeException
        permits RecordNotFoundException, DuplicateKeyException, CategoryInUseException, UnknownCategoryException,
                StockNotFoundException, UpstreamFailedException, UpstreamTimeoutException {

    private static final long serialVersionUID = 1L;

    DomainException(String message) {
        this(message, null);
    }

    /** The cause is what the error map logs in one line; no stack trace: these are answers, not failures. */
    DomainException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
