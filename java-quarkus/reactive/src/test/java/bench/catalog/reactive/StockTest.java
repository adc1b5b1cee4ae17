package bench.catalog.reactive;

import bench.catalog.test.StockContractTest;
import bench.catalog.test.StockUpstreamStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The reactive variant's stock client against the stub upstream. The stub is a test resource for
 * every test of the module (ApiTest too), so one start of the application serves them all.
 */
@QuarkusTest
@QuarkusTestResource(StockUpstreamStub.class)
class StockTest extends StockContractTest {
}
