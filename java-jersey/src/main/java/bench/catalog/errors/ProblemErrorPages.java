package bench.catalog.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.http.server.ErrorPageGenerator;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.util.HttpStatus;

/**
 * Grizzly's own error pages (a request Jersey never saw, or a failure after mapping) as problem
 * JSON instead of Grizzly's HTML. A broken %-escape in the path or the query ({@code /items/%zz},
 * {@code ?page=%zz}) makes Jersey's container fail to build the request URI before the
 * application sees it, which Grizzly answers with a 500: here it is the client's 400.
 */
public final class ProblemErrorPages implements ErrorPageGenerator {

    private static final Logger LOG = Logger.getLogger(ProblemErrorPages.class.getName());

    private final ObjectMapper mapper;

    public ProblemErrorPages(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public String generate(Request request, int status, String reasonPhrase, String description, Throwable exception) {
        int answered = status;
        if (isMalformedUri(exception)) {
            answered = 400;
            request.getResponse().setStatus(HttpStatus.BAD_REQUEST_400);
        } else if (exception != null) {
            LOG.log(Level.SEVERE, "request failed in the container", exception);
        }
        request.getResponse().setContentType(Problem.MEDIA_TYPE);
        request.getResponse().setCharacterEncoding("UTF-8");
        String detail = answered == 400 ? "malformed request"
                : answered >= 500 ? "internal error" : "the request could not be processed";
        try {
            return mapper.writeValueAsString(Problem.of(answered, detail));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isMalformedUri(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof URISyntaxException) {
                return true;
            }
        }
        return false;
    }
}
