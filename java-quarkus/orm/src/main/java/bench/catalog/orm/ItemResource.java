package bench.catalog.orm;

import bench.catalog.data.Item;
import bench.catalog.data.Slice;
import bench.catalog.http.ItemBody;
import bench.catalog.http.ItemStockResource;
import bench.catalog.http.ItemView;
import bench.catalog.http.PageRequest;
import bench.catalog.http.PageView;
import bench.catalog.http.StrictIntegers;
import bench.catalog.stock.StockService;
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
 * {@code /items}: as CategoryResource, blocking methods on the worker pool; {@code /items/{id}/stock},
 * a Uni, is ItemStockResource's.
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
    public PageView<ItemView> list(UriInfo uri) {
        PageRequest request = PageRequest.from(uri);
        String categoryId = uri.getQueryParameters().getFirst("categoryId");
        Slice<Item> slice = categoryId == null ? items.page(request)
                : items.pageOfCategory(StrictIntegers.parse("categoryId", categoryId), request);
        return PageView.of(slice.content().stream().map(ItemView::of).toList(), request, slice.total());
    }

    @POST
    public Response create(@Valid ItemBody body) {
        Item item = items.create(body.applyTo(new Item()), body.category());
        return Response.created(URI.create("/items/" + item.id)).entity(ItemView.of(item)).build();
    }

    @GET
    @Path("{id}")
    public ItemView get(@RestPath long id) {
        return ItemView.of(items.get(id));
    }

    @PUT
    @Path("{id}")
    public ItemView replace(@RestPath long id, @Valid ItemBody body) {
        return ItemView.of(items.replace(id, body::applyTo, body.category()));
    }

    @DELETE
    @Path("{id}")
    public void delete(@RestPath long id) {
        items.remove(id);
    }
}
