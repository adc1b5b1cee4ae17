package bench.datarest.system;

import java.net.URI;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class AvatarController {

	private final String baseUrl;

	private final int count;

	AvatarController(AvatarProperties properties) {
		this.baseUrl = properties.baseUrl().replaceFirst("/+$", "");
		this.count = properties.count();
	}

	/** A random one of the avatars, as a 302 (the status is explicit: it is what the API promises). */
	@GetMapping("/avatar")
	ResponseEntity<Void> avatar() {
		int n = ThreadLocalRandom.current().nextInt(1, this.count + 1);
		return ResponseEntity.status(HttpStatus.FOUND).location(URI.create(this.baseUrl + "/Renard-" + n + ".png")).build();
	}

}
