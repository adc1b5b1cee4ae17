package bench.catalog.http;

import bench.catalog.data.ItemRepository;
import bench.catalog.data.RecordNotFoundException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /categories/{id}/items}: the sub-resource of {@link CategoryItemsLocator}, and the listing
 * {@link CategoryItemsMethod} calls.
 */
@Produces(MediaType.APPLICATION_JSON)
public final class CategoryItemsResource {

    private final ItemRepository items;

    CategoryItemsResource(ItemRepository items) {
        this.items = items;
    }

    @GET
    public PageView<ItemView> list(@PathParam("id") long categoryId,
            @QueryParam("page") @DefaultValue(Paging.FIRST_PAGE) @Paging.PageNumber long page,
            @QueryParam("size") @DefaultValue(Paging.DEFAULT_SIZE) @Paging.PageSize long size) {
        var request = Paging.request(page, size);
        return items.pageOfExistingCategory(categoryId, request)
                .map(result -> PageView.of(result, request, ItemView::of))
                .orElseThrow(() -> new RecordNotFoundException("category", categoryId));
    }
}
