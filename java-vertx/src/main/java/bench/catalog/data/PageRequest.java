package bench.catalog.data;

/** A page number (from 0) and a page size, both already valid. */
public record PageRequest(long number, int size) {

    /**
     * The rows to skip, or -1 when the page starts past every row: also when {@code number × size}
     * does not fit in 64 bits, which no table reaches.
     */
    long offsetWithin(long total) {
        try {
            long offset = Math.multiplyExact(number, size);
            return offset < total ? offset : -1;
        } catch (ArithmeticException e) {
            return -1;
        }
    }
}
