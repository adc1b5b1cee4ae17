package bench.catalog.orm;

import bench.catalog.data.Category;
import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.Slice;
import bench.catalog.data.SqlStates;
import bench.catalog.http.PageRequest;
import io.quarkus.hibernate.orm.panache.PanacheRepository;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.function.Consumer;
import org.hibernate.exception.ConstraintViolationException;

/**
 * Categories through Hibernate ORM with Panache. Writes go to PostgreSQL and read its answer from
 * the constraint that failed: a taken code is {@code category_code_key}, a category items still
 * belong to is {@code item_category_id_fkey}.
 */
@ApplicationScoped
public class CategoryRepository implements PanacheRepository<Category> {

    public Category get(long id) {
        return findByIdOptional(id).orElseThrow(() -> new RecordNotFoundException("category", id));
    }

    public Slice<Category> page(PageRequest request) {
        long total = count();
        int offset = request.offsetWithin(total);
        List<Category> content = offset < 0 ? List.of()
                : findAll(Sort.by("id")).range(offset, offset + request.size() - 1).list();
        return new Slice<>(content, total);
    }

    @Transactional
    public Category create(Category category) {
        return write(category);
    }

    @Transactional
    public Category replace(long id, Consumer<Category> changes) {
        Category category = get(id);
        changes.accept(category);
        return write(category);
    }

    @Transactional
    public void remove(long id) {
        long deleted;
        try {
            deleted = delete("id", id);
        } catch (ConstraintViolationException e) {
            throw SqlStates.ITEM_CATEGORY_ID_FKEY.equals(e.getConstraintName()) ? new CategoryInUseException(id) : e;
        }
        if (deleted == 0) {
            throw new RecordNotFoundException("category", id);
        }
    }

    private Category write(Category category) {
        try {
            persistAndFlush(category);
        } catch (ConstraintViolationException e) {
            throw SqlStates.CATEGORY_CODE_KEY.equals(e.getConstraintName())
                    ? new DuplicateKeyException("code", category.code) : e;
        }
        return category;
    }
}
