package bench.catalog.data;

/** A 0-based page of {@code size} rows, ordered by id. */
public record PageRequest(long number, int size) {

    public PageRequest {
        if (number < 0 || size < 1) {
            throw new IllegalArgumentException("page number must be >= 0 and size >= 1");
        }
    }

    /** Rows to skip, or {@link Long#MAX_VALUE} when {@code number × size} does not fit in 64 bits. */
    public long offset() {
        long high = Math.multiplyHigh(number, size);
        long low = number * size;
        return high != 0 || low < 0 ? Long.MAX_VALUE : low;
    }
}
