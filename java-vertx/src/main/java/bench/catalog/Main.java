package bench.catalog;

import bench.catalog.http.BodyBudget;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts Vert.x with one event loop per processor the JVM is given and deploys one
 * {@link CatalogVerticle} on each; SIGTERM closes Vert.x, which undeploys them gracefully.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        Config config;
        try {
            config = Config.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("java-vertx: " + e.getMessage());
            System.exit(1);
            return;
        }

        int eventLoops = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(eventLoops)
                // Nothing is served from files: no class-path resolving, no .vertx cache directory.
                .setFileSystemOptions(new FileSystemOptions()
                        .setClassPathResolvingEnabled(false)
                        .setFileCachingEnabled(false)));

        BodyBudget bodies = new BodyBudget(BodyBudget.BYTES);
        vertx.deployVerticle(() -> new CatalogVerticle(config, bodies), new DeploymentOptions().setInstances(eventLoops))
                .onSuccess(id -> {
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> close(vertx), "shutdown"));
                    System.out.printf("java-vertx %s listening on %s:%d, pool size %d, %d event loop(s)%n",
                            Main.class.getPackage().getImplementationVersion(), config.host(), config.port(),
                            config.poolSize(), eventLoops);
                })
                .onFailure(failure -> {
                    System.err.println("java-vertx: could not start: " + failure.getMessage());
                    vertx.close().onComplete(done -> System.exit(1));
                });
    }

    /** Undeploys the verticles (each one lets its requests in flight finish) and closes the pool. */
    private static void close(Vertx vertx) {
        try {
            vertx.close().await(CatalogVerticle.SHUTDOWN_GRACE.toSeconds() + 1, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            System.err.println("java-vertx: shutdown did not finish in time");
        }
    }
}
