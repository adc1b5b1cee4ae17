package bench.catalog.category;

import bench.catalog.error.ConstraintViolation;
import bench.catalog.error.ConstraintViolation.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** spec/API.md, "Constraint violations": what a category write or delete makes of PostgreSQL's errors. */
class CategoryRepositoryTest {

    private static final CategoryInput INPUT = new CategoryInput("CAT-0001", "Taken");

    @Test
    void aUniqueViolationOnAWriteIsATakenCode() {
        var violation = assertThrows(ConstraintViolation.class, () -> CategoryRepository.throwIfWriteViolation(
                new SQLException("duplicate key value violates unique constraint \"category_code_key\"", "23505"), INPUT));
        assertEquals(Kind.CATEGORY_CODE_TAKEN, violation.kind());
        assertEquals("code CAT-0001 already exists", violation.getMessage());
    }

    @Test
    void aForeignKeyViolationOnADeleteIsACategoryStillReferenced() {
        var violation = assertThrows(ConstraintViolation.class, () -> CategoryRepository.throwIfDeleteViolation(
                new SQLException("update or delete on table \"category\" violates foreign key constraint", "23503"), 7));
        assertEquals(Kind.CATEGORY_STILL_REFERENCED, violation.kind());
        assertEquals("category 7 still has items", violation.getMessage());
    }

    /** Left as they are, these become a logged 500. */
    @ParameterizedTest
    @ValueSource(strings = {"23502", "23514", "23503", "23P01", "22001", "XX000"})
    void otherWriteFailuresAreNotViolations(String sqlState) {
        assertDoesNotThrow(() -> CategoryRepository.throwIfWriteViolation(new SQLException("x", sqlState), INPUT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"23502", "23514", "23505", "XX000"})
    void otherDeleteFailuresAreNotViolations(String sqlState) {
        assertDoesNotThrow(() -> CategoryRepository.throwIfDeleteViolation(new SQLException("x", sqlState), 7));
    }
}
