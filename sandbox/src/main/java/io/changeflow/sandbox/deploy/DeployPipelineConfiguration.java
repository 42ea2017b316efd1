package io.changeflow.sandbox.deploy;

import io.changeflow.sandbox.fault.FaultConfiguration;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.webhook.CallbackControls;
import io.changeflow.sandbox.webhook.CallbackEndpoint;
import io.changeflow.sandbox.webhook.SimulatorCallbacks;
import io.changeflow.sandbox.webhook.WebhookConfiguration;
import io.changeflow.sandbox.webhook.WebhookProperties;
import io.changeflow.sandbox.webhook.WebhookSender;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The deploy pipeline simulator: the {@link io.changeflow.sandbox.MergeListener} the GitLab simulator tells about merges. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DeployPipelineProperties.class)
@Import({FaultConfiguration.class, WebhookConfiguration.class})
public class DeployPipelineConfiguration {

    @Bean
    DeployPipelineSimulator deployPipelineSimulator(DeployPipelineProperties properties, WebhookProperties webhook,
                                                    CallbackEndpoint endpoint, Faults faults, ObjectProvider<Clock> clock) {
        // one delivery thread: callbacks leave in the order their runs were queued (merge order)
        var sender = new WebhookSender(Faults.DEPLOY, 1, webhook.requiredDeploySecret(), endpoint, webhook,
                clock.getIfAvailable(Clock::systemUTC));
        return new DeployPipelineSimulator(properties, new SimulatorCallbacks(sender, new CallbackControls(faults, Faults.DEPLOY)),
                faults);
    }

    @Bean
    DeployControlsController sandboxDeployControlsController(DeployPipelineSimulator simulator) {
        return new DeployControlsController(simulator);
    }

    @Bean
    DeployCommitReportsController sandboxDeployCommitReportsController(DeployPipelineSimulator simulator) {
        return new DeployCommitReportsController(simulator);
    }
}
