package bench.catalog.reactive;

import bench.catalog.data.Category;
import bench.catalog.http.CategoryBody;
import bench.catalog.http.CategoryView;
import bench.catalog.http.ItemView;
import bench.catalog.http.PageRequest;
import bench.catalog.http.PageView;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import org.jboss.resteasy.reactive.RestPath;

/**
 * {@code /categories}: the blocking application's resource with Uni answers, which Quarkus REST
 * runs on the event loop. Binding and validation are the same, before the method runs.
 */
@Path("/categories")
@Produces(MediaType.APPLICATION_JSON)
public class CategoryResource {

    private final CategoryRepository categories;
    private final ItemRepository items;

    public CategoryResource(CategoryRepository categories, ItemRepository items) {
        this.categories = categories;
        this.items = items;
    }

    @GET
    public Uni<PageView<CategoryView>> list(UriInfo uri) {
        PageRequest request = PageRequest.from(uri);
        return categories.page(request).map(slice ->
                PageView.of(slice.content().stream().map(CategoryView::of).toList(), request, slice.total()));
    }

    @POST
    public Uni<Response> create(@Valid CategoryBody body) {
        return categories.create(body.applyTo(new Category())).map(category ->
                Response.created(URI.create("/categories/" + category.id)).entity(CategoryView.of(category)).build());
    }

    @GET
    @Path("{id}")
    public Uni<CategoryView> get(@RestPath long id) {
        return categories.get(id).map(CategoryView::of);
    }

    @PUT
    @Path("{id}")
    public Uni<CategoryView> replace(@RestPath long id, @Valid CategoryBody body) {
        return categories.replace(id, body::applyTo).map(CategoryView::of);
    }

    @DELETE
    @Path("{id}")
    public Uni<Void> delete(@RestPath long id) {
        return categories.remove(id);
    }

    @GET
    @Path("{id}/items")
    public Uni<PageView<ItemView>> items(@RestPath long id, UriInfo uri) {
        PageRequest request = PageRequest.from(uri);
        return items.pageOfExistingCategory(id, request).map(slice ->
                PageView.of(slice.content().stream().map(ItemView::of).toList(), request, slice.total()));
    }
}
