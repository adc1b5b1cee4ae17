package bench.catalog.http;

import bench.catalog.data.ItemRepository;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Path;

/**
 * {@code /categories/{id}/items} through a sub-resource locator, the stack's own routing of it
 * ({@code CATEGORY_ITEMS=sub-resource-locator}, the default). Jersey merges this class with
 * {@link CategoryResource}, which has the same path, into one resource.
 */
@Path("/categories")
@Singleton
public final class CategoryItemsLocator {

    private final CategoryItemsResource categoryItems;

    @Inject
    public CategoryItemsLocator(ItemRepository items) {
        this.categoryItems = new CategoryItemsResource(items);
    }

    /**
     * The locator takes no parameter: it runs before the HTTP method is matched, and a wrong
     * method must answer 405 even when the id is malformed, so the sub-resource's GET binds the id.
     * It returns the one instance, so Jersey's cache of the sub-resource's model is hit every time.
     */
    @Path("{id}/items")
    public CategoryItemsResource items() {
        return categoryItems;
    }
}
