package bench.catalog.reactive;

import bench.catalog.data.Item;
import bench.catalog.data.Slice;
import bench.catalog.http.ItemBody;
import bench.catalog.http.ItemStockResource;
import bench.catalog.http.ItemView;
import bench.catalog.http.PageRequest;
import bench.catalog.http.PageView;
import bench.catalog.http.StrictIntegers;
import bench.catalog.stock.StockService;
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
 * {@code /items}: as CategoryResource, Uni answers on the event loop; {@code /items/{id}/stock} is
 * ItemStockResource's.
 */
@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
public class ItemResource extends ItemStockResource {

    private final ItemRepository items;

    public ItemResource(ItemRepository items, StockService stock) {
        super(stock);
        this.items = items;
    }

    @GET
    public Uni<PageView<ItemView>> list(UriInfo uri) {
        PageRequest request = PageRequest.from(uri);
        String categoryId = uri.getQueryParameters().getFirst("categoryId");
        Uni<Slice<Item>> slice = categoryId == null ? items.page(request)
                : items.pageOfCategory(StrictIntegers.parse("categoryId", categoryId), request);
        return slice.map(found ->
                PageView.of(found.content().stream().map(ItemView::of).toList(), request, found.total()));
    }

    @POST
    public Uni<Response> create(@Valid ItemBody body) {
        return items.create(body.applyTo(new Item()), body.category()).map(item ->
                Response.created(URI.create("/items/" + item.id)).entity(ItemView.of(item)).build());
    }

    @GET
    @Path("{id}")
    public Uni<ItemView> get(@RestPath long id) {
        return items.get(id).map(ItemView::of);
    }

    @PUT
    @Path("{id}")
    public Uni<ItemView> replace(@RestPath long id, @Valid ItemBody body) {
        return items.replace(id, body::applyTo, body.category()).map(ItemView::of);
    }

    @DELETE
    @Path("{id}")
    public Uni<Void> delete(@RestPath long id) {
        return items.remove(id);
    }
}
