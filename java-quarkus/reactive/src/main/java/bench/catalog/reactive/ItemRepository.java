package bench.catalog.reactive;

import bench.catalog.data.Category;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.Item;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.Slice;
import bench.catalog.data.SqlStates;
import bench.catalog.data.UnknownCategoryException;
import bench.catalog.http.PageRequest;
import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * Items through Hibernate Reactive with Panache: the same queries as the blocking application's
 * (the category fetched with the item, a list and its count), as Unis.
 */
@ApplicationScoped
public class ItemRepository implements PanacheRepository<Item> {

    private static final String WITH_CATEGORY = "from Item i join fetch i.category";

    private final CategoryRepository categories;

    public ItemRepository(CategoryRepository categories) {
        this.categories = categories;
    }

    @WithSession
    public Uni<Item> get(long id) {
        return find(WITH_CATEGORY + " where i.id = ?1", id).firstResult()
                .onItem().ifNull().failWith(() -> new RecordNotFoundException("item", id));
    }

    @WithSession
    public Uni<Slice<Item>> page(PageRequest request) {
        return count().chain(total -> slice(request, total, WITH_CATEGORY + " order by i.id"));
    }

    /** The items of a category, or an empty page when there is no such category. */
    @WithSession
    public Uni<Slice<Item>> pageOfCategory(long categoryId, PageRequest request) {
        return count("category.id", categoryId).chain(total ->
                slice(request, total, WITH_CATEGORY + " where i.category.id = ?1 order by i.id", categoryId));
    }

    /** The items of a category that must exist: 404 when it does not. */
    @WithSession
    public Uni<Slice<Item>> pageOfExistingCategory(long categoryId, PageRequest request) {
        return categories.get(categoryId).chain(category -> pageOfCategory(categoryId, request));
    }

    @WithTransaction
    public Uni<Item> create(Item item, long categoryId) {
        return write(item, categoryId);
    }

    @WithTransaction
    public Uni<Item> replace(long id, Consumer<Item> changes, long categoryId) {
        return findById(id).onItem().ifNull().failWith(() -> new RecordNotFoundException("item", id))
                .chain(item -> {
                    changes.accept(item);
                    return write(item, categoryId);
                });
    }

    @WithTransaction
    public Uni<Void> remove(long id) {
        return delete("id", id).chain(deleted -> deleted == 0
                ? Uni.createFrom().failure(new RecordNotFoundException("item", id))
                : Uni.createFrom().voidItem());
    }

    private Uni<Slice<Item>> slice(PageRequest request, long total, String query, Object... parameters) {
        int offset = request.offsetWithin(total);
        if (offset < 0) {
            return Uni.createFrom().item(new Slice<>(List.of(), total));
        }
        return find(query, parameters).range(offset, offset + request.size() - 1).list()
                .map(content -> new Slice<>(content, total));
    }

    private Uni<Item> write(Item item, long categoryId) {
        return getSession()
                .chain(session -> {
                    item.category = session.getReference(Category.class, categoryId);
                    return persistAndFlush(item);
                })
                .onFailure(error -> PgErrors.constraint(error).isPresent())
                .transform(error -> translate(error, item, categoryId))
                // The answer shows the category: loaded here, in the same session.
                .call(written -> Mutiny.fetch(written.category));
    }

    private static Throwable translate(Throwable error, Item item, long categoryId) {
        Optional<String> constraint = PgErrors.constraint(error);
        if (constraint.filter(SqlStates.ITEM_SKU_KEY::equals).isPresent()) {
            return new DuplicateKeyException("sku", item.sku);
        }
        if (constraint.filter(SqlStates.ITEM_CATEGORY_ID_FKEY::equals).isPresent()) {
            return new UnknownCategoryException(categoryId);
        }
        return error;
    }
}
