package io.changeflow.sandbox.mailbox;

import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The sandbox's mail server and chat webhook receiver (issue 32). The port the mail server got is published as
 * {@value #BOUND_PORT}, which the sandbox defaults point the application's mail adapter at (read on every message).
 */
@Configuration(proxyBeanMethods = false)
@Import(NotificationsSimulatorController.class)
public class NotificationsSimulatorConfiguration {

    static final String BOUND_PORT = "sandbox.mail.bound-port";

    @Bean(destroyMethod = "stop")
    SandboxMailbox sandboxMailbox(@Value("${sandbox.mail.port:3025}") int port, ConfigurableEnvironment environment) {
        var mailbox = new SandboxMailbox(port);
        mailbox.start();
        environment.getPropertySources().addFirst(new MapPropertySource("sandboxMailbox",
                Map.of(BOUND_PORT, String.valueOf(mailbox.port()))));
        return mailbox;
    }

    @Bean
    ChatInbox chatInbox() {
        return new ChatInbox();
    }
}
