package io.changeflow.sandbox.approval;

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

/** The approval system simulator ({@code /sim/approval/**}) and its controls. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApprovalSimulatorProperties.class)
@Import({FaultConfiguration.class, WebhookConfiguration.class})
public class ApprovalSimulatorConfiguration {

    @Bean
    ApprovalSimulator approvalSimulator(ApprovalSimulatorProperties properties, WebhookProperties webhook,
                                        CallbackEndpoint endpoint, Faults faults, ObjectProvider<Clock> clock) {
        var time = clock.getIfAvailable(Clock::systemUTC);
        var sender = new WebhookSender(Faults.APPROVAL, 2, webhook.requiredApprovalSecret(), endpoint, webhook, time);
        return new ApprovalSimulator(properties, new SimulatorCallbacks(sender, new CallbackControls(faults, Faults.APPROVAL)),
                time);
    }

    @Bean
    ApprovalApiController sandboxApprovalApiController(ApprovalSimulator simulator, Faults faults) {
        return new ApprovalApiController(simulator, faults);
    }

    @Bean
    ApproverInboxController sandboxApproverInboxController(ApprovalSimulator simulator) {
        return new ApproverInboxController(simulator);
    }

    @Bean
    ApprovalControlsController sandboxApprovalControlsController(ApprovalSimulator simulator) {
        return new ApprovalControlsController(simulator);
    }
}
