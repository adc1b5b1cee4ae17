package bench.webflux;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * What BlockHound lets pass in this application's tests, each for a stated reason (registered in
 * META-INF/services, which blockhound-junit-platform reads when it installs BlockHound).
 */
public class BlockHoundAllowances implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		// r2dbc-postgresql's SCRAM-SHA-256 authentication draws its client nonce from SecureRandom
		// (NativePRNG reads 32 bytes of /dev/urandom, which never blocks), on the driver's event
		// loop, once for each connection the pool opens; never on a request's own path.
		builder.allowBlockingCallsInside("com.ongres.scram.common.ScramFunctions", "nonce");
	}

}
