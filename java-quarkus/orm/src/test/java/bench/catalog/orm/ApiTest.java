package bench.catalog.orm;

import bench.catalog.test.ApiContractTest;
import io.quarkus.test.junit.QuarkusTest;

/** The blocking application started in-process, under the cases both applications share. */
@QuarkusTest
class ApiTest extends ApiContractTest {
}
