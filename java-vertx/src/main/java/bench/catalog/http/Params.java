package bench.catalog.http;

import bench.catalog.data.PageRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Path ids and query parameters, after Vert.x has decoded them: the contract's integer grammar
 * (spec/API.md, "Integers in paths and query parameters") checked on the text, because
 * {@link Long#parseLong} alone also takes non-ASCII digits.
 */
final class Params {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final String ID = "id";

    private Params() {}

    /** The first handler of every route with an {@code :id}: a 400 before anything else is read. */
    static void parseId(RoutingContext ctx) {
        ctx.put(ID, integer(ctx.pathParam(ID), "the id must be an integer in the signed 64-bit range"));
        ctx.next();
    }

    /** The id {@link #parseId} read. */
    static long id(RoutingContext ctx) {
        return ctx.<Long>get(ID);
    }

    static PageRequest page(RoutingContext ctx) {
        String pageRule = "page must be an integer of 0 or more";
        long number = query(ctx, "page", 0, pageRule);
        if (number < 0) {
            throw new BadRequestException(pageRule);
        }
        String sizeRule = "size must be an integer between 1 and 100";
        long size = query(ctx, "size", 20, sizeRule);
        if (size < 1 || size > 100) {
            throw new BadRequestException(sizeRule);
        }
        return new PageRequest(number, (int) size);
    }

    /** The {@code categoryId} filter of /items, or null without one; present but empty is a 400. */
    static Long categoryId(RoutingContext ctx) {
        List<String> values = ctx.queryParam("categoryId");
        return values.isEmpty()
                ? null
                : integer(values.getFirst(), "categoryId must be an integer in the signed 64-bit range");
    }

    private static long query(RoutingContext ctx, String name, long fallback, String rule) {
        List<String> values = ctx.queryParam(name);
        return values.isEmpty() ? fallback : integer(values.getFirst(), rule);
    }

    private static long integer(String text, String rule) {
        if (text != null && INTEGER.matcher(text).matches()) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // out of the signed 64-bit range: answered below
            }
        }
        throw new BadRequestException(rule);
    }
}
