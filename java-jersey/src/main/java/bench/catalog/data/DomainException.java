package bench.catalog.data;

/**
 * What the data layer tells its callers about a write or a lookup that the database refused or
 * found nothing for. Sealed, so that the error map answers every kind and the compiler says so
 * when a new kind has no answer yet. Its message is meant for the client of the API as is.
 */
public abstract sealed class DomainException extends RuntimeException
        permits RecordNotFoundException, DuplicateKeyException, CategoryInUseException, UnknownCategoryException {

    private static final long serialVersionUID = 1L;

    DomainException(String message) {
        // No stack trace: these are answers, not failures.
        super(message, null, false, false);
    }
}
