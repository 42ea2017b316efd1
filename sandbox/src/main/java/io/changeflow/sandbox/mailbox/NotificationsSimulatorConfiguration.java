package io.changeflow.sandbox.mailbox;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The sandbox's mail server and chat webhook receiver (issue 32). */
@Configuration(proxyBeanMethods = false)
@Import(NotificationsSimulatorController.class)
public class NotificationsSimulatorConfiguration {

    @Bean(initMethod = "start", destroyMethod = "stop")
    SandboxMailbox sandboxMailbox(@Value("${sandbox.mail.port:3025}") int port) {
        return new SandboxMailbox(port);
    }

    @Bean
    ChatInbox chatInbox() {
        return new ChatInbox();
    }
}
