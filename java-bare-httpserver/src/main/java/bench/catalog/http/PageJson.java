package bench.catalog.http;

import bench.catalog.db.Page;
import bench.catalog.json.JsonWriter;

import java.util.function.BiConsumer;

/** The page envelope, in the shape Spring Data serialises pages to. */
public final class PageJson {

    private PageJson() {
    }

    public static <T> JsonWriter write(Page<T> page, BiConsumer<JsonWriter, T> element) {
        var w = new JsonWriter(256 + page.content().size() * 1024);
        w.beginObject().name("content").beginArray();
        for (T item : page.content()) {
            element.accept(w, item);
        }
        return w.endArray()
                .name("page").beginObject()
                .field("size", page.request().size())
                .field("number", page.request().number())
                .field("totalElements", page.totalElements())
                .field("totalPages", page.totalPages())
                .endObject()
                .endObject();
    }
}
