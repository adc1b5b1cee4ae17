package bench.catalog.http;

import bench.catalog.data.ItemRepository;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /categories/{id}/items} as a plain resource method ({@code CATEGORY_ITEMS=resource-method}):
 * the variant {@code resource-method} that measures the sub-resource locator of
 * {@link CategoryItemsLocator} against it. The same listing, reached without a locator.
 */
@Path("/categories")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class CategoryItemsMethod {

    private final CategoryItemsResource categoryItems;

    @Inject
    public CategoryItemsMethod(ItemRepository items) {
        this.categoryItems = new CategoryItemsResource(items);
    }

    @GET
    @Path("{id}/items")
    public PageView<ItemView> list(@PathParam("id") long categoryId,
            @QueryParam("page") @DefaultValue(Paging.FIRST_PAGE) @Paging.PageNumber long page,
            @QueryParam("size") @DefaultValue(Paging.DEFAULT_SIZE) @Paging.PageSize long size) {
        return categoryItems.list(categoryId, page, size);
    }
}
