package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.workflow.StateChanges;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The deploy deadline (issue 20): its job and the operators' deploy actions. The two keys,
 * {@value #DEADLINE} and {@value #EVERY}, are read as text and resolved fail-safe
 * ({@link DeployDeadline.Policy#of}): a missing, garbled, zero or negative value means its default
 * (2 h, 1 min) and never stops the service from starting.
 */
@Configuration(proxyBeanMethods = false)
class DeployConfiguration {

    static final String DEADLINE = "changeflow.workflow.deploy-deadline";
    static final String EVERY = "changeflow.workflow.deploy-deadline-every";

    @Bean
    DeployDeadline.Policy deployDeadlinePolicy(Environment environment) {
        return FailSafeSettings.resolve(environment, DEADLINE, EVERY, DeployDeadline.Policy::of,
                DeployDeadline.Policy::deadline, DeployDeadline.Policy::every);
    }

    @Bean
    DeployDeadline deployDeadline(Operations operations, StateChanges changes, DeployDeadline.Policy policy) {
        return new DeployDeadline(operations, changes, policy);
    }

    @Bean
    RecurringJob deployDeadlineJob(DeployDeadline deadline, DeployDeadline.Policy policy) {
        return new RecurringJob("deploy-deadline", policy.every(), () -> deadline.run(new DeployDeadline.Command()));
    }

    @Bean
    ConfirmDeployed confirmDeployed(Operations operations, MarkDeployed markDeployed, AuditLog audit, Clock clock) {
        return new ConfirmDeployed(operations, markDeployed, audit, clock);
    }

    @Bean
    MarkDeployFailed markDeployFailed(Operations operations, StateChanges changes, AuditLog audit, Clock clock) {
        return new MarkDeployFailed(operations, changes, audit, clock);
    }
}
