package bench.catalog.http;

import bench.catalog.config.Settings;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.ThreadLocalRandom;

/** {@code GET /avatar}: a 302, set explicitly (JAX-RS' temporaryRedirect is a 307), to a random picture. */
@Path("/avatar")
public class AvatarResource {

    private final Settings.Avatar avatars;

    public AvatarResource(Settings settings) {
        this.avatars = settings.avatar();
    }

    @GET
    @NonBlocking
    public Response avatar() {
        int picture = ThreadLocalRandom.current().nextInt(1, avatars.count() + 1);
        return Response.status(Response.Status.FOUND)
                .header(HttpHeaders.LOCATION, avatars.baseUrl() + "/Renard-" + picture + ".png")
                .build();
    }
}
