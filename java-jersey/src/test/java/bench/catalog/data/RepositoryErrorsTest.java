package bench.catalog.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import jakarta.persistence.PersistenceException;
import java.math.BigDecimal;
import java.sql.SQLException;
import org.hibernate.exception.ConstraintViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Constraint violations become domain errors by SQLSTATE and the write that caused them; any
 * other integrity error is left as it is, for the error map to answer a logged 500.
 */
class RepositoryErrorsTest {

    private static final ItemData ITEM = new ItemData("SKU-X", "x", new BigDecimal("1.00"), 1, null, 77);
    private static final CategoryData CATEGORY = new CategoryData("CAT-X", "x");

    private static PersistenceException violation(String state, String constraint) {
        return new ConstraintViolationException("could not execute statement", new SQLException("violation", state),
                constraint);
    }

    @Test
    void uniqueViolationOnAnItemWriteIsItsSku() {
        RuntimeException error = ItemRepository.translate(violation("23505", "item_sku_key"), ITEM);
        assertInstanceOf(DuplicateKeyException.class, error);
        assertEquals("sku SKU-X already exists", error.getMessage());
    }

    @Test
    void foreignKeyViolationOnAnItemWriteIsAnUnknownCategory() {
        RuntimeException error = ItemRepository.translate(violation("23503", "item_category_id_fkey"), ITEM);
        assertInstanceOf(UnknownCategoryException.class, error);
        assertEquals("category 77 does not exist", error.getMessage());
    }

    @Test
    void uniqueViolationOnACategoryWriteIsItsCode() {
        RuntimeException error = CategoryRepository.translate(violation("23505", "category_code_key"), CATEGORY);
        assertInstanceOf(DuplicateKeyException.class, error);
        assertEquals("code CAT-X already exists", error.getMessage());
    }

    @Test
    void foreignKeyViolationOnACategoryDeleteIsACategoryInUse() {
        RuntimeException error = CategoryRepository.translateDelete(violation("23503", "item_category_id_fkey"), 9);
        assertInstanceOf(CategoryInUseException.class, error);
        assertEquals("category 9 still has items", error.getMessage());
    }

    /** Not null, check, exclusion, a foreign key on a category write, or no SQLSTATE: left for a logged 500. */
    @ParameterizedTest
    @ValueSource(strings = {"23502", "23514", "23P01", "23000", "22001"})
    void otherIntegrityErrorsAreLeftAsTheyAre(String state) {
        PersistenceException error = violation(state, "some_constraint");
        assertSame(error, ItemRepository.translate(error, ITEM));
        assertSame(error, CategoryRepository.translate(error, CATEGORY));
        assertSame(error, CategoryRepository.translateDelete(error, 9));
    }

    @Test
    void theRightStateOnTheWrongWriteIsLeftAsItIs() {
        PersistenceException foreignKey = violation("23503", "item_category_id_fkey");
        assertSame(foreignKey, CategoryRepository.translate(foreignKey, CATEGORY));
        PersistenceException unique = violation("23505", "category_code_key");
        assertSame(unique, CategoryRepository.translateDelete(unique, 9));
        PersistenceException none = new PersistenceException("no SQLSTATE");
        assertSame(none, ItemRepository.translate(none, ITEM));
    }
}
