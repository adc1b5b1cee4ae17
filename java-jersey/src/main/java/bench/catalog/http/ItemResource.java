package bench.catalog.http;

import bench.catalog.data.Item;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.Page;
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

@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public final class ItemResource {

    private final ItemRepository items;
    private final RequestBodies bodies;

    @Inject
    public ItemResource(ItemRepository items, RequestBodies bodies) {
        this.items = items;
        this.bodies = bodies;
    }

    @GET
    public PageView<ItemView> list(@QueryParam("categoryId") Long categoryId,
            @QueryParam("page") @DefaultValue(Paging.FIRST_PAGE) @Paging.PageNumber long page,
            @QueryParam("size") @DefaultValue(Paging.DEFAULT_SIZE) @Paging.PageSize long size) {
        var request = Paging.request(page, size);
        Page<Item> result = categoryId == null ? items.page(request) : items.pageOfCategory(categoryId, request);
        return PageView.of(result, request, ItemView::of);
    }

    @GET
    @Path("{id}")
    public ItemView get(@PathParam("id") long id) {
        return items.find(id).map(ItemView::of).orElseThrow(() -> new RecordNotFoundException("item", id));
    }

    @POST
    public Response create(JsonNode body) {
        ItemView created = ItemView.of(items.create(bodies.read(body, ItemRequest::read).data()));
        return Response.created(URI.create("/items/" + created.id())).entity(created).build();
    }

    @PUT
    @Path("{id}")
    public ItemView replace(@PathParam("id") long id, JsonNode body) {
        return ItemView.of(items.replace(id, bodies.read(body, ItemRequest::read).data()));
    }

    @DELETE
    @Path("{id}")
    public void delete(@PathParam("id") long id) {
        items.delete(id);
    }
}
