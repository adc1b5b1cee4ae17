package bench.catalog.http;

import bench.catalog.data.Item;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.Page;
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

@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class ItemResource {

    private final ItemRepository items;

    @Inject
    public ItemResource(ItemRepository items) {
        this.items = items;
    }

    @GET
    public PageView<ItemView> list(@QueryParam("categoryId") String categoryId,
                                   @QueryParam("page") String page, @QueryParam("size") String size) {
        Long category = categoryId == null ? null : QueryParams.categoryId(categoryId);
        var request = QueryParams.page(page, size);
        Page<Item> result = category == null ? items.page(request) : items.pageOfCategory(category, request);
        return PageView.of(result, request, ItemView::of);
    }

    @GET
    @Path("{id}")
    public ItemView get(@PathParam("id") PathId id) {
        return items.find(id.value()).map(ItemView::of).orElseThrow(() -> new RecordNotFoundException("item", id.value()));
    }

    @POST
    public Response create(JsonNode body) {
        ItemView created = ItemView.of(items.create(RequestBodies.item(body)));
        return Response.created(URI.create("/items/" + created.id())).entity(created).build();
    }

    @PUT
    @Path("{id}")
    public ItemView replace(@PathParam("id") PathId id, JsonNode body) {
        return ItemView.of(items.replace(id.value(), RequestBodies.item(body)));
    }

    @DELETE
    @Path("{id}")
    public void delete(@PathParam("id") PathId id) {
        items.delete(id.value());
    }
}
