package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import bench.catalog.data.PageRequest;
import org.junit.jupiter.api.Test;

class PageRequestTest {

    @Test
    void offsetIsPageTimesSize() {
        assertEquals(0, new PageRequest(0, 20).offset());
        assertEquals(4_000, new PageRequest(40, 100).offset());
    }

    @Test
    void offsetThatOverflowsIsPastEveryEnd() {
        assertEquals(Long.MAX_VALUE, new PageRequest(Long.MAX_VALUE, 2).offset());
        assertEquals(Long.MAX_VALUE, new PageRequest(Long.MAX_VALUE / 50, 100).offset());
    }
}
