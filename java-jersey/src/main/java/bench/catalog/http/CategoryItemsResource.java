package bench.catalog.http;

import bench.catalog.data.ItemRepository;
import bench.catalog.data.RecordNotFoundException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code /categories/{id}/items}, reached through {@link CategoryResource#items(String)}. */
@Produces(MediaType.APPLICATION_JSON)
public final class CategoryItemsResource {

    private final String categoryId;
    private final ItemRepository items;

    CategoryItemsResource(String categoryId, ItemRepository items) {
        this.categoryId = categoryId;
        this.items = items;
    }

    @GET
    public PageView<ItemView> list(@QueryParam("page") String page, @QueryParam("size") String size) {
        long id = PathId.valueOf(categoryId).value();
        var request = QueryParams.page(page, size);
        return items.pageOfExistingCategory(id, request)
                .map(result -> PageView.of(result, request, ItemView::of))
                .orElseThrow(() -> new RecordNotFoundException("category", id));
    }
}
