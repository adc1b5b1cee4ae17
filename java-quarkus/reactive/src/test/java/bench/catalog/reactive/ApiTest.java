package bench.catalog.reactive;

import bench.catalog.test.ApiContractTest;
import io.quarkus.test.junit.QuarkusTest;

/** The reactive variant started in-process, under the cases both applications share. */
@QuarkusTest
class ApiTest extends ApiContractTest {
}
