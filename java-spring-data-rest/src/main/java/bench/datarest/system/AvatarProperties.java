package bench.datarest.system;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** {@code AVATAR_BASE_URL} and {@code AVATAR_COUNT}, mapped in application.properties. */
@ConfigurationProperties("app.avatar")
@Validated
public record AvatarProperties(@NotBlank String baseUrl, @Min(1) int count) {
}
