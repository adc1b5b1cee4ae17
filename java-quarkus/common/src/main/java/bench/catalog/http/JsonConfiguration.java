package bench.catalog.http;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Quarkus' ObjectMapper, read numbers exactly: a JSON fraction becomes a BigDecimal, never a
 * double, so that a price is judged by the value written (spec/API.md, "price").
 */
@Singleton
public class JsonConfiguration implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }
}
