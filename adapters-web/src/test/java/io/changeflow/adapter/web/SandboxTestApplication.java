package io.changeflow.adapter.web;

import java.time.Clock;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The web adapter as the embedded default run wires it: its own directory and permissions, the
 * demo login, the per-path rules with their defaults.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({WebConfiguration.class, InMemoryUseCases.class, TestEndpoints.class, ResponseRecording.class, AppHeaderMockMvc.class})
class SandboxTestApplication {

    @Bean
    TestWebhooks testWebhooks() {
        return new TestWebhooks(Clock.systemUTC());
    }
}
