package bench.catalog.item;

import bench.catalog.error.ConstraintViolation;
import bench.catalog.error.ConstraintViolation.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** spec/API.md, "Constraint violations": what an item write makes of PostgreSQL's errors. */
class ItemRepositoryTest {

    private static final ItemInput INPUT = new ItemInput("SKU-000001", "n", BigDecimal.ONE, 1, null, 999999999);

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            23505 | ITEM_SKU_TAKEN   | sku SKU-000001 already exists
            23503 | UNKNOWN_CATEGORY | category 999999999 does not exist
            """)
    void recognisesTheTwoViolationsAnItemWriteCanCause(String sqlState, Kind kind, String message) {
        var violation = assertThrows(ConstraintViolation.class,
                () -> ItemRepository.throwIfWriteViolation(new SQLException("x", sqlState), INPUT));
        assertEquals(kind, violation.kind());
        assertEquals(message, violation.getMessage());
    }

    /** Left as they are, these become a logged 500. */
    @ParameterizedTest
    @ValueSource(strings = {"23502", "23514", "23P01", "22003", "XX000", "57014"})
    void otherFailuresAreNotViolations(String sqlState) {
        assertDoesNotThrow(() -> ItemRepository.throwIfWriteViolation(new SQLException("x", sqlState), INPUT));
    }
}
