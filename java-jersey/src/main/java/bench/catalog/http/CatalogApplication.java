package bench.catalog.http;

import bench.catalog.Config;
import bench.catalog.data.CategoryRepository;
import bench.catalog.data.Database;
import bench.catalog.data.ItemRepository;
import bench.catalog.data.StockClient;
import bench.catalog.errors.ExceptionMappers;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.inject.Singleton;
import org.glassfish.hk2.utilities.binding.AbstractBinder;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.server.validation.ValidationFeature;

/**
 * The JAX-RS application: resources built with their repositories and the stock client, the JSON
 * set-up and binding, the error mappers.
 */
public final class CatalogApplication extends ResourceConfig {

    public CatalogApplication(Config config, Database database, StockClient stock, ObjectMapper mapper) {
        CategoryRepository categories = new CategoryRepository(database.entityManagerFactory());
        ItemRepository items = new ItemRepository(database.entityManagerFactory());
        register(new AbstractBinder() {
            @Override
            protected void configure() {
                bind(config).to(Config.class);
                bind(database).to(Database.class);
                bind(categories).to(CategoryRepository.class);
                bind(items).to(ItemRepository.class);
                bind(stock).to(StockClient.class);
                bindAsContract(RequestBodies.class).in(Singleton.class);
            }
        });

        register(CategoryResource.class);
        // The one knob of the variant resource-method: which class serves /categories/{id}/items.
        register(switch (config.categoryItems()) {
            case SUB_RESOURCE_LOCATOR -> CategoryItemsLocator.class;
            case RESOURCE_METHOD -> CategoryItemsMethod.class;
        });
        register(ItemResource.class);
        register(StockResource.class);
        register(AvatarResource.class);
        register(HealthResource.class);

        // Request bodies: JSON through Jackson, without its own exception mappers (they would answer
        // text/plain 400s); JsonBodies lets only application/json of at most 1 MiB through to it.
        register(JacksonFeature.withoutExceptionMappers());
        register(new Json(mapper));
        register(JsonBodies.class);
        // Path ids and query parameters: the integer grammar, then Bean Validation of their range.
        register(StrictIntegers.class);
        register(ValidationFeature.class);
        register(NoTrailingSlashFilter.class);
        register(CloseAfterMethodFramedBodies.class);
        ExceptionMappers.ALL.forEach(this::register);
        if (config.logRequests()) {
            register(RequestLogFilter.class);
        }

        // Only what is registered above: no auto-discovered features with mappers of their own,
        // and no WADL document at /application.wadl.
        property(CommonProperties.FEATURE_AUTO_DISCOVERY_DISABLE, true);
        property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }
}
