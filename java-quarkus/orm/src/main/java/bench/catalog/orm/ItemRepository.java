package bench.catalog.orm;

import bench.catalog.data.Category;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.Item;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.Slice;
import bench.catalog.data.SqlStates;
import bench.catalog.data.UnknownCategoryException;
import bench.catalog.http.PageRequest;
import io.quarkus.hibernate.orm.panache.PanacheRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.function.Consumer;
import org.hibernate.Hibernate;
import org.hibernate.exception.ConstraintViolationException;

/**
 * Items through Hibernate ORM with Panache. Every read fetches the item's category in the same
 * query ({@code join fetch}); a list is that query and its count. A write sets the category by
 * reference and lets the foreign key say whether it exists.
 */
@ApplicationScoped
public class ItemRepository implements PanacheRepository<Item> {

    private static final String WITH_CATEGORY = "from Item i join fetch i.category";

    private final CategoryRepository categories;

    public ItemRepository(CategoryRepository categories) {
        this.categories = categories;
    }

    public Item get(long id) {
        return find(WITH_CATEGORY + " where i.id = ?1", id).firstResultOptional()
                .orElseThrow(() -> new RecordNotFoundException("item", id));
    }

    public Slice<Item> page(PageRequest request) {
        long total = count();
        return slice(request, total, WITH_CATEGORY + " order by i.id");
    }

    /** The items of a category, or an empty page when there is no such category. */
    public Slice<Item> pageOfCategory(long categoryId, PageRequest request) {
        long total = count("category.id", categoryId);
        return slice(request, total, WITH_CATEGORY + " where i.category.id = ?1 order by i.id", categoryId);
    }

    /** The items of a category that must exist: 404 when it does not. */
    public Slice<Item> pageOfExistingCategory(long categoryId, PageRequest request) {
        categories.get(categoryId);
        return pageOfCategory(categoryId, request);
    }

    @Transactional
    public Item create(Item item, long categoryId) {
        return write(item, categoryId);
    }

    @Transactional
    public Item replace(long id, Consumer<Item> changes, long categoryId) {
        Item item = findByIdOptional(id).orElseThrow(() -> new RecordNotFoundException("item", id));
        changes.accept(item);
        return write(item, categoryId);
    }

    @Transactional
    public void remove(long id) {
        if (delete("id", id) == 0) {
            throw new RecordNotFoundException("item", id);
        }
    }

    private Slice<Item> slice(PageRequest request, long total, String query, Object... parameters) {
        int offset = request.offsetWithin(total);
        List<Item> content = offset < 0 ? List.of()
                : find(query, parameters).range(offset, offset + request.size() - 1).list();
        return new Slice<>(content, total);
    }

    private Item write(Item item, long categoryId) {
        item.category = getEntityManager().getReference(Category.class, categoryId);
        try {
            persistAndFlush(item);
        } catch (ConstraintViolationException e) {
            String constraint = e.getConstraintName();
            if (SqlStates.ITEM_SKU_KEY.equals(constraint)) {
                throw new DuplicateKeyException("sku", item.sku);
            }
            if (SqlStates.ITEM_CATEGORY_ID_FKEY.equals(constraint)) {
                throw new UnknownCategoryException(categoryId);
            }
            throw e;
        }
        // The answer shows the category: loaded here, while the transaction is open.
        Hibernate.initialize(item.category);
        return item;
    }
}
