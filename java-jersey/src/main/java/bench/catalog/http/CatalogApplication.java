package bench.catalog.http;

import bench.catalog.Config;
import bench.catalog.data.CategoryRepository;
import bench.catalog.data.Database;
import bench.catalog.data.ItemRepository;
import bench.catalog.errors.ExceptionMappers;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.glassfish.hk2.utilities.binding.AbstractBinder;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/** The JAX-RS application: resources built with their repositories, the JSON set-up, the error mappers. */
public final class CatalogApplication extends ResourceConfig {

    public CatalogApplication(Config config, Database database, ObjectMapper mapper) {
        CategoryRepository categories = new CategoryRepository(database.entityManagerFactory());
        ItemRepository items = new ItemRepository(database.entityManagerFactory());
        register(new AbstractBinder() {
            @Override
            protected void configure() {
                bind(config).to(Config.class);
                bind(database).to(Database.class);
                bind(categories).to(CategoryRepository.class);
                bind(items).to(ItemRepository.class);
            }
        });

        register(CategoryResource.class);
        register(ItemResource.class);
        register(AvatarResource.class);
        register(HealthResource.class);

        // Without Jackson's own exception mappers, which would answer text/plain 400s.
        register(JacksonFeature.withoutExceptionMappers());
        register(new Json(mapper));
        register(new JsonBodyReader(mapper));
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
