package bench.catalog.reactive;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnectOptions;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The pool Hibernate Reactive and the health check share, made as Quarkus makes it but for the
 * wait for a connection: 3 s, within spec/API.md's 5 s and the same as the stack's Agroal, where
 * Vert.x waits 30 s and Quarkus has no setting for it.
 */
@Singleton
public class PoolCreator implements PgPoolCreator {

    private static final int ACQUISITION_TIMEOUT_S = 3;

    @Override
    public Pool create(Input input) {
        input.poolOptions().setConnectionTimeout(ACQUISITION_TIMEOUT_S).setConnectionTimeoutUnit(TimeUnit.SECONDS);
        List<SqlConnectOptions> servers = List.copyOf(input.pgConnectOptionsList());
        return PgBuilder.pool().with(input.poolOptions()).connectingTo(servers).using(input.vertx()).build();
    }
}
