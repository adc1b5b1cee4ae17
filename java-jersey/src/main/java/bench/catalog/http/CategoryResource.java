package bench.catalog.http;

import bench.catalog.data.CategoryRepository;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.RecordNotFoundException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

@Path("/categories")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class CategoryResource {

    private final CategoryRepository categories;
    private final ItemRepository items;

    @Inject
    public CategoryResource(CategoryRepository categories, ItemRepository items) {
        this.categories = categories;
        this.items = items;
    }

    @GET
    public PageView<CategoryView> list(@QueryParam("page") String page, @QueryParam("size") String size) {
        var request = QueryParams.page(page, size);
        return PageView.of(categories.page(request), request, CategoryView::of);
    }

    @GET
    @Path("{id}")
    public CategoryView get(@PathParam("id") PathId id) {
        return categories.find(id.value()).map(CategoryView::of).orElseThrow(() -> new RecordNotFoundException("category", id.value()));
    }

    @POST
    public Response create(JsonNode body) {
        CategoryView created = CategoryView.of(categories.create(RequestBodies.category(body)));
        return Response.created(URI.create("/categories/" + created.id())).entity(created).build();
    }

    @PUT
    @Path("{id}")
    public CategoryView replace(@PathParam("id") PathId id, JsonNode body) {
        return CategoryView.of(categories.replace(id.value(), RequestBodies.category(body)));
    }

    @DELETE
    @Path("{id}")
    public void delete(@PathParam("id") PathId id) {
        categories.delete(id.value());
    }

    /**
     * Sub-resource locator for {@code /categories/{id}/items}. The id stays a string here and is
     * parsed by the sub-resource's GET: a locator runs before the HTTP method is matched, and a
     * wrong method must answer 405 even when the id is malformed.
     */
    @Path("{id}/items")
    public CategoryItemsResource items(@PathParam("id") String id) {
        return new CategoryItemsResource(id, items);
    }
}
