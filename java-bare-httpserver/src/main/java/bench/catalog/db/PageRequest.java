package bench.catalog.db;

import java.util.OptionalLong;

/** A 0-based page number and a page size (1..100, checked by the HTTP layer). */
public record PageRequest(long number, int size) {

    /** The first row of this page, or empty when number × size overflows 64 bits (past any end). */
    public OptionalLong offset() {
        long high = Math.multiplyHigh(number, size);
        long low = number * size;
        return high == 0 && low >= 0 ? OptionalLong.of(low) : OptionalLong.empty();
    }
}
