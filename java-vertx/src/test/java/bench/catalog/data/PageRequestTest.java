package bench.catalog.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PageRequestTest {

    @Test
    void theOffsetOfAPageWithinTheRows() {
        assertEquals(0, new PageRequest(0, 20).offsetWithin(100));
        assertEquals(80, new PageRequest(4, 20).offsetWithin(100));
    }

    @Test
    void aPagePastTheRowsHasNoOffset() {
        assertEquals(-1, new PageRequest(5, 20).offsetWithin(100));
        assertEquals(-1, new PageRequest(0, 20).offsetWithin(0));
        assertEquals(-1, new PageRequest(Long.MAX_VALUE, 100).offsetWithin(100));
    }
}
