package bench.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.core.Response;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AvatarAndHealthTest extends ApiTest {

    @Test
    void avatarRedirectsWith302ToOneOfTheImages() {
        Config config = TestDatabase.config();
        Pattern location = Pattern.compile(Pattern.quote(config.avatarBaseUrl() + "/Renard-") + "(\\d+)\\.png");
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            Response response = target("/avatar").request().get();
            assertEquals(302, response.getStatus());
            assertEquals("", response.readEntity(String.class));
            Matcher matcher = location.matcher(response.getHeaderString("Location"));
            assertTrue(matcher.matches(), response.getHeaderString("Location"));
            int n = Integer.parseInt(matcher.group(1));
            assertTrue(n >= 1 && n <= config.avatarCount(), "n = " + n);
            seen.add(n);
        }
        assertTrue(seen.size() > 1, "the image is chosen at random");
    }

    @Test
    void healthIsUpWhileTheDatabaseAnswers() {
        Response response = target("/health").request().get();
        assertEquals(200, response.getStatus());
        assertEquals("UP", body(response).get("status").asText());
    }
}
