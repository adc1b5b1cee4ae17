package bench.webflux.config;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** {@code DATABASE_URL} and {@code DB_POOL_SIZE}, mapped in application.properties. */
@ConfigurationProperties("app.database")
@Validated
public record DatabaseProperties(String url, @Min(1) int poolSize) {
}
