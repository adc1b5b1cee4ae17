package bench.catalog.orm;

import bench.catalog.http.CategoryBody;
import bench.catalog.http.CategoryView;
import bench.catalog.http.ItemView;
import bench.catalog.http.PageRequest;
import bench.catalog.http.PageView;
import bench.catalog.data.Category;
import bench.catalog.data.Slice;
import bench.catalog.data.Item;
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
 * {@code /categories}: blocking methods, which Quarkus REST runs on its worker pool. The body is
 * bound by Jackson and validated by Hibernate Validator ({@code @Valid}) before the method runs;
 * the path id was checked by RequestPreconditions.
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
    public PageView<CategoryView> list(UriInfo uri) {
        PageRequest request = PageRequest.from(uri);
        Slice<Category> slice = categories.page(request);
        return PageView.of(slice.content().stream().map(CategoryView::of).toList(), request, slice.total());
    }

    @POST
    public Response create(@Valid CategoryBody body) {
        Category category = categories.create(body.applyTo(new Category()));
        return Response.created(URI.create("/categories/" + category.id)).entity(CategoryView.of(category)).build();
    }

    @GET
    @Path("{id}")
    public CategoryView get(@RestPath long id) {
        return CategoryView.of(categories.get(id));
    }

    @PUT
    @Path("{id}")
    public CategoryView replace(@RestPath long id, @Valid CategoryBody body) {
        return CategoryView.of(categories.replace(id, body::applyTo));
    }

    @DELETE
    @Path("{id}")
    public void delete(@RestPath long id) {
        categories.remove(id);
    }

    @GET
    @Path("{id}/items")
    public PageView<ItemView> items(@RestPath long id, UriInfo uri) {
        PageRequest request = PageRequest.from(uri);
        Slice<Item> slice = items.pageOfExistingCategory(id, request);
        return PageView.of(slice.content().stream().map(ItemView::of).toList(), request, slice.total());
    }
}
