package io.changeflow.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.sandbox.deploy.DeployPipelineSimulator;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties;
import io.changeflow.sandbox.webhook.WebhookProperties;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

@SpringBootTest(classes = SandboxConfigurationTest.App.class, properties = "sandbox.approval.auto-delay=5s")
class SandboxConfigurationTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(SandboxConfiguration.class)
    static class App {
    }

    @Autowired
    ApplicationContext context;
    @Autowired
    Environment environment;

    @Test
    void wiresFaultsAndTheSimulators() {
        assertThat(context.getBeansOfType(Faults.class)).hasSize(1);
        assertThat(context.getBean(MergeListener.class)).isInstanceOf(DeployPipelineSimulator.class);
        assertThat(context.getBean(ApprovalSimulator.class).mode()).isEqualTo(ApprovalSimulator.Mode.AUTO);
    }

    @Test
    void defaultsComeFromTheSandboxFileAndApplicationPropertiesWin() {
        var webhook = context.getBean(WebhookProperties.class);

        assertThat(webhook.approvalSecret()).startsWith("whsec_");
        assertThat(webhook.deploySecret()).startsWith("whsec_").isNotEqualTo(webhook.approvalSecret());
        assertThat(environment.getProperty("sandbox.deploy.delay", Duration.class)).isEqualTo(Duration.ofSeconds(2));
        assertThat(environment.getProperty("sandbox.approval.auto-delay", Duration.class)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void theApplicationsVerifierAndClientFollowTheSimulators() {
        var webhook = context.getBean(WebhookProperties.class);

        assertThat(environment.getProperty("changeflow.callbacks.approval.secrets")).isEqualTo(webhook.approvalSecret());
        assertThat(environment.getProperty("changeflow.callbacks.deploy.secrets")).isEqualTo(webhook.deploySecret());
        assertThat(environment.getProperty("changeflow.approval.base-url")).endsWith("/sim/approval");
    }

    /** What the GitLab adapter binds from {@code changeflow.gitlab.author} and {@code changeflow.gitlab.approvers[n]}. */
    record Bot(String account, String token) {}

    @Test
    void theGitLabAdapterTalksToTheGitLabSimulatorOfThisProcessWithTheSimulatorsBots() {
        var simulator = context.getBean(GitLabSimulatorProperties.class);
        var binder = Binder.get(environment);

        assertThat(environment.getProperty("changeflow.gitlab.base-url"))
                .isEqualTo("http://localhost:" + environment.getProperty("server.port", "8080") + "/sim/gitlab");
        assertThat(binder.bind("changeflow.gitlab.author", Bot.class).get())
                .isEqualTo(new Bot(simulator.author().username(), simulator.author().token()));
        assertThat(binder.bind("changeflow.gitlab.approvers", Bindable.listOf(Bot.class)).get())
                .containsExactlyElementsOf(simulator.approvers().stream()
                        .map(account -> new Bot(account.username(), account.token())).toList());
    }
}
