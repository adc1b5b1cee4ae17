package bench.catalog.http;

/** A request body that JsonBodyReader reads: a category's or an item's write body. */
public interface WriteBody {
}
