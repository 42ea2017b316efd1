package io.changeflow.sandbox;

import io.changeflow.sandbox.approval.ApprovalSimulatorConfiguration;
import io.changeflow.sandbox.deploy.DeployPipelineConfiguration;
import io.changeflow.sandbox.fault.FaultConfiguration;
import io.changeflow.sandbox.gitlab.GitLabSimulatorConfiguration;
import io.changeflow.sandbox.mailbox.NotificationsSimulatorConfiguration;
import io.changeflow.sandbox.webhook.WebhookConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * Everything of the embedded default run that stands in for the outside world: the shared fault
 * injection ({@code /sandbox/faults}, operators only), the approval system simulator
 * ({@code /sim/approval/**}), the deploy pipeline simulator, the GitLab simulator, and the mail server and chat
 * webhook receiver of the notifications ({@code /sim/notifications}). The
 * application imports this only in the {@code sandbox} profile; the production profile has none of it.
 * <p>
 * Settings are {@code sandbox.*}; their defaults, and the application-side settings that must agree
 * with them (callback secrets, the approval client's base URL, the GitLab adapter's base URL and bot
 * accounts), come from
 * {@code io/changeflow/sandbox/sandbox-defaults.properties} with the lowest precedence.
 */
@Configuration(proxyBeanMethods = false)
@PropertySource("classpath:io/changeflow/sandbox/sandbox-defaults.properties")
@Import({FaultConfiguration.class, WebhookConfiguration.class, ApprovalSimulatorConfiguration.class,
        DeployPipelineConfiguration.class, GitLabSimulatorConfiguration.class, NotificationsSimulatorConfiguration.class})
public class SandboxConfiguration {
}
