package bench.catalog.http;

import bench.catalog.Config;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.concurrent.ThreadLocalRandom;

@Path("/avatar")
@Singleton
public final class AvatarResource {

    private final String baseUrl;
    private final int count;

    @Inject
    public AvatarResource(Config config) {
        this.baseUrl = config.avatarBaseUrl();
        this.count = config.avatarCount();
    }

    /** 302 set explicitly: JAX-RS's {@code temporaryRedirect} would be a 307. */
    @GET
    public Response redirect() {
        int n = ThreadLocalRandom.current().nextInt(1, count + 1);
        return Response.status(Response.Status.FOUND).location(URI.create(baseUrl + "/Renard-" + n + ".png")).build();
    }
}
