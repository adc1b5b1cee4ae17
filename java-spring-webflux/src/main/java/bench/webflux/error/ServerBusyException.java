package bench.webflux.error;

import java.io.Serial;

/** No room for another request body among those being read (503, and the connection closed). */
public class ServerBusyException extends RuntimeException {

	@Serial
	private static final long serialVersionUID = 1L;

	public ServerBusyException(String detail) {
		super(detail);
	}

}
