package bench.datarest.config;

import java.util.List;

import bench.datarest.category.Category;
import bench.datarest.item.Item;
import bench.datarest.web.UriListConverter;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.rest.core.config.RepositoryRestConfiguration;
import org.springframework.data.rest.core.event.ValidatingRepositoryEventListener;
import org.springframework.data.rest.webmvc.config.RepositoryRestConfigurer;
import org.springframework.data.rest.webmvc.convert.UriListHttpMessageConverter;
import org.springframework.data.web.HateoasPageableHandlerMethodArgumentResolver;
import org.springframework.http.HttpMethod;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.validation.Validator;
import org.springframework.web.servlet.config.annotation.CorsRegistry;

/**
 * What Spring Data REST is told beyond application.properties ({@code spring.data.rest.*}: page
 * sizes, bodies on create and update). Each line is one of its documented settings.
 */
@Configuration(proxyBeanMethods = false)
class RestConfiguration implements RepositoryRestConfigurer {

	private final Validator validator;

	RestConfiguration(Validator validator) {
		this.validator = validator;
	}

	@Override
	public void configureRepositoryRestConfiguration(RepositoryRestConfiguration config, CorsRegistry cors) {
		// The id is a property of both resources, as in the API (Data REST leaves it to the self link).
		config.exposeIdsFor(Category.class, Item.class);
		// Ids come from the database's sequences: a PUT cannot create a resource under an id the
		// client chose, so a PUT on an absent id is refused (405) instead of tried.
		config.getExposureConfiguration().disablePutForCreation();
		// The API replaces whole resources and has no partial update: no PATCH (405).
		config.getExposureConfiguration().withItemExposure((metadata, methods) -> methods.disable(HttpMethod.PATCH));
		// An item's category is required: its association resource (/items/{id}/category) is read
		// (GET) and replaced (PUT, text/uri-list), never removed.
		config.getExposureConfiguration()
			.withAssociationExposure((metadata, methods) -> methods.disable(HttpMethod.DELETE, HttpMethod.PATCH,
					HttpMethod.POST));
	}

	@Override
	public void configureHttpMessageConverters(List<HttpMessageConverter<?>> converters) {
		converters.replaceAll((converter) -> (converter instanceof UriListHttpMessageConverter)
				? new UriListConverter() : converter);
	}

	/**
	 * Bean Validation of the entities before every create and save, Spring Data REST's way: an
	 * invalid body is a 400 listing each invalid property, before anything is written.
	 */
	@Override
	public void configureValidatingRepositoryEventListener(ValidatingRepositoryEventListener listener) {
		listener.addValidator("beforeCreate", this.validator);
		listener.addValidator("beforeSave", this.validator);
	}

	/**
	 * Collections are sorted by id unless the request says {@code sort=}: Spring Data REST's own
	 * fallback page is unsorted (PostgreSQL's order), and it replaces whatever a
	 * {@code PageableHandlerMethodArgumentResolverCustomizer} sets, so the fallback is set after it.
	 */
	@Bean
	static BeanPostProcessor sortByIdByDefault() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof HateoasPageableHandlerMethodArgumentResolver resolver) {
					Sort byId = Sort.by("id");
					resolver.setFallbackPageable(PageRequest.of(0, 20, byId));
				}
				return bean;
			}
		};
	}

}
