package bench.datarest.error;

import java.io.Serial;

/** No room for another request body among those being read: a 503 (UnavailableHandler). */
public class ServerBusyException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public ServerBusyException() {
		super("the server is busy, try again shortly");
	}

}
