package bench.catalog.http;

import bench.catalog.data.DatabaseUnavailableException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.ThreadLocalRandom;

/** /health and /avatar. */
final class SystemHandlers {

    private static final JsonObject UP = new JsonObject().put("status", "UP");

    private final Pool pool;
    private final String avatarBaseUrl;
    private final int avatarCount;

    SystemHandlers(Pool pool, String avatarBaseUrl, int avatarCount) {
        this.pool = pool;
        this.avatarBaseUrl = avatarBaseUrl;
        this.avatarCount = avatarCount;
    }

    /** SELECT 1 on a pooled connection: 200 when it answers, the 503 of any unavailable database otherwise. */
    void health(RoutingContext ctx) {
        pool.query("SELECT 1").execute()
                .onSuccess(answered -> ctx.json(UP))
                .onFailure(failure -> ctx.fail(new DatabaseUnavailableException(failure)));
    }

    /** A 302 set explicitly, to one of AVATAR_COUNT pictures drawn anew for every request. */
    void avatar(RoutingContext ctx) {
        int picture = ThreadLocalRandom.current().nextInt(1, avatarCount + 1);
        ctx.response()
                .setStatusCode(302)
                .putHeader(HttpHeaders.LOCATION, avatarBaseUrl + "/Renard-" + picture + ".png")
                .end();
    }
}
