package bench.catalog.reactive;

import bench.catalog.data.Category;
import bench.catalog.data.CategoryInUseException;
import bench.catalog.data.DuplicateKeyException;
import bench.catalog.data.RecordNotFoundException;
import bench.catalog.data.Slice;
import bench.catalog.data.SqlStates;
import bench.catalog.http.PageRequest;
import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.function.Consumer;

/**
 * Categories through Hibernate Reactive with Panache: the blocking application's repository
 * (orm/) with every answer a Uni. The same constraints say what a failed write means.
 */
@ApplicationScoped
public class CategoryRepository implements PanacheRepository<Category> {

    @WithSession
    public Uni<Category> get(long id) {
        return findById(id).onItem().ifNull().failWith(() -> new RecordNotFoundException("category", id));
    }

    @WithSession
    public Uni<Slice<Category>> page(PageRequest request) {
        return count().chain(total -> {
            int offset = request.offsetWithin(total);
            if (offset < 0) {
                return Uni.createFrom().item(new Slice<Category>(List.of(), total));
            }
            return findAll(Sort.by("id")).range(offset, offset + request.size() - 1).list()
                    .map(content -> new Slice<>(content, total));
        });
    }

    @WithTransaction
    public Uni<Category> create(Category category) {
        return write(category);
    }

    @WithTransaction
    public Uni<Category> replace(long id, Consumer<Category> changes) {
        return get(id).chain(category -> {
            changes.accept(category);
            return write(category);
        });
    }

    @WithTransaction
    public Uni<Void> remove(long id) {
        return delete("id", id)
                .onFailure(error -> PgErrors.constraint(error).filter(SqlStates.ITEM_CATEGORY_ID_FKEY::equals).isPresent())
                .transform(error -> new CategoryInUseException(id))
                .chain(deleted -> deleted == 0
                        ? Uni.createFrom().failure(new RecordNotFoundException("category", id))
                        : Uni.createFrom().voidItem());
    }

    private Uni<Category> write(Category category) {
        return persistAndFlush(category)
                .onFailure(error -> PgErrors.constraint(error).filter(SqlStates.CATEGORY_CODE_KEY::equals).isPresent())
                .transform(error -> new DuplicateKeyException("code", category.code));
    }
}
