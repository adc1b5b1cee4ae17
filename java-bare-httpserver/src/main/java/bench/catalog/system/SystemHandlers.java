package bench.catalog.system;

import bench.catalog.db.Database;
import bench.catalog.http.Exchange;
import bench.catalog.http.Router;
import bench.catalog.json.JsonWriter;

import java.io.IOException;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

/** /avatar (the original article's 302) and /health. */
public final class SystemHandlers {

    private static final byte[] UP = new JsonWriter().beginObject().field("status", "UP").endObject().toBytes();

    private final Database database;
    /** Every possible Location, built once: the redirect allocates nothing per request. */
    private final String[] avatars;

    public SystemHandlers(Database database, String avatarBaseUrl, int avatarCount) {
        this.database = database;
        this.avatars = new String[avatarCount];
        for (int n = 1; n <= avatarCount; n++) {
            avatars[n - 1] = avatarBaseUrl + "/Renard-" + n + ".png";
        }
    }

    public void register(Router router) {
        router.get("/avatar", this::avatar)
                .get("/health", this::health);
    }

    private void avatar(Exchange exchange) throws IOException {
        exchange.sendRedirect(avatars[ThreadLocalRandom.current().nextInt(avatars.length)]);
    }

    /** A failing SELECT 1 is a connection failure, which the error mapping answers with 503. */
    private void health(Exchange exchange) throws IOException, SQLException {
        database.ping();
        exchange.sendJson(200, UP);
    }
}
