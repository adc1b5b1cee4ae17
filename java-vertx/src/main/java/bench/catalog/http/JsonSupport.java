package bench.catalog.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import io.vertx.core.json.jackson.DatabindCodec;

/** The settings of Vert.x's JSON codec (jackson-databind underneath), for the whole process. */
final class JsonSupport {

    private JsonSupport() {}

    static void configure() {
        DatabindCodec.mapper()
                // A JSON number with a fraction or an exponent decodes to its exact BigDecimal, so
                // that a price is judged by the value written (spec/API.md, "price"), never a double.
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                // Vert.x turns C-style comments on; a body with them is not JSON (RFC 8259), so a 400.
                .configure(JsonParser.Feature.ALLOW_COMMENTS, false);
    }
}
