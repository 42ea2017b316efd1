package io.changeflow.adapter.web;

import io.changeflow.adapter.local.LocalConfiguration;
import io.changeflow.adapter.local.LoggingAuditLog;
import io.changeflow.application.port.out.AuditLog;
import java.time.Clock;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The web adapter as the embedded default run wires it: the local adapters' directory and permissions,
 * the demo login, the per-path rules with their defaults, audit entries to the log.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({WebConfiguration.class, LocalConfiguration.class, InMemoryUseCases.class, TestEndpoints.class, ResponseRecording.class, AppHeaderMockMvc.class})
class SandboxTestApplication {

    @Bean
    AuditLog loggingAuditLog() {
        return new LoggingAuditLog();
    }

    @Bean
    TestWebhooks testWebhooks() {
        return new TestWebhooks(Clock.systemUTC());
    }
}
