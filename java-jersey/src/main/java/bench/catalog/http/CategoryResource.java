package bench.catalog.http;

import bench.catalog.data.CategoryRepository;
import bench.catalog.data.RecordNotFoundException;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
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

/**
 * {@code /categories} and {@code /categories/{id}}. {@code /categories/{id}/items} is served by
 * {@link CategoryItemsLocator} or {@link CategoryItemsMethod}, as {@code CATEGORY_ITEMS} chooses.
 */
@Path("/categories")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class CategoryResource {

    private final CategoryRepository categories;
    private final RequestBodies bodies;

    @Inject
    public CategoryResource(CategoryRepository categories, RequestBodies bodies) {
        this.categories = categories;
        this.bodies = bodies;
    }

    @GET
    public PageView<CategoryView> list(
            @QueryParam("page") @DefaultValue(Paging.FIRST_PAGE) @Paging.PageNumber long page,
            @QueryParam("size") @DefaultValue(Paging.DEFAULT_SIZE) @Paging.PageSize long size) {
        var request = Paging.request(page, size);
        return PageView.of(categories.page(request), request, CategoryView::of);
    }

    @GET
    @Path("{id}")
    public CategoryView get(@PathParam("id") long id) {
        return categories.find(id).map(CategoryView::of).orElseThrow(() -> new RecordNotFoundException("category", id));
    }

    @POST
    public Response create(JsonNode body) {
        CategoryView created = CategoryView.of(categories.create(bodies.read(body, CategoryRequest::read).data()));
        return Response.created(URI.create("/categories/" + created.id())).entity(created).build();
    }

    @PUT
    @Path("{id}")
    public CategoryView replace(@PathParam("id") long id, JsonNode body) {
        return CategoryView.of(categories.replace(id, bodies.read(body, CategoryRequest::read).data()));
    }

    @DELETE
    @Path("{id}")
    public void delete(@PathParam("id") long id) {
        categories.delete(id);
    }
}
