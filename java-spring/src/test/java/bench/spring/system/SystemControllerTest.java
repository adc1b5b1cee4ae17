package bench.spring.system;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest({ AvatarController.class, HealthController.class })
@EnableConfigurationProperties(AvatarProperties.class)
@TestPropertySource(properties = { "AVATAR_BASE_URL=https://pics.test/", "AVATAR_COUNT=3" })
class SystemControllerTest {

	@Autowired
	private MockMvc mvc;

	@MockitoBean
	private JdbcClient jdbc;

	@Test
	void avatarIsABare302ToOneOfThePictures() throws Exception {
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < 200; i++) {
			seen.add(this.mvc.perform(get("/avatar"))
				.andExpect(status().isFound())
				.andExpect(content().string(""))
				.andReturn()
				.getResponse()
				.getHeader("Location"));
		}
		assertThat(seen).containsExactlyInAnyOrder("https://pics.test/Renard-1.png", "https://pics.test/Renard-2.png",
				"https://pics.test/Renard-3.png");
	}

	@Test
	void healthIs503ProblemWhenTheDatabaseIsDown() throws Exception {
		given(this.jdbc.sql("SELECT 1")).willThrow(new CannotGetJdbcConnectionException("refused"));
		this.mvc.perform(get("/health"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.status").value(503));
	}

}
