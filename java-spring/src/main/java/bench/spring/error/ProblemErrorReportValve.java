package bench.spring.error;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Tomcat's last resort, for what it rejects before any servlet runs (a malformed URI such as
 * {@code /items/%zz}, an encoded slash, TRACE): problem JSON instead of Tomcat's HTML page.
 * Everything that reaches the application is answered by {@link ApiExceptionHandler} or
 * {@link ProblemErrorController}, and this valve then finds the response already written.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		AtomicBoolean ioAllowed = new AtomicBoolean(false);
		response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
		if (!ioAllowed.get()) {
			return;
		}
		HttpStatus known = HttpStatus.resolve(status);
		String title = known != null ? known.getReasonPhrase() : "Error";
		String detail = status == 400 ? "the request is malformed" : title;
		try {
			response.setContentType("application/problem+json");
			response.setCharacterEncoding("utf-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status
						+ ",\"detail\":\"" + detail + "\"}");
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the connection is gone: nothing more to say
		}
	}

	@Component
	static class Installer implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

		@Override
		public void customize(TomcatServletWebServerFactory factory) {
			factory.addContextCustomizers(context -> ((StandardHost) context.getParent())
				.setErrorReportValveClass(ProblemErrorReportValve.class.getName()));
		}

	}

}
