package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.config.RawValue;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
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

    private static final Logger log = LoggerFactory.getLogger(DeployConfiguration.class);

    @Bean
    DeployDeadline.Policy deployDeadlinePolicy(Environment environment) {
        var binder = Binder.get(environment);
        var deadline = text(binder, DEADLINE);
        var every = text(binder, EVERY);
        var policy = DeployDeadline.Policy.of(new RawValue(deadline), new RawValue(every));
        log.info("deploy deadline {} (configured '{}'), checked every {} (configured '{}')", policy.deadline(),
                deadline.orElse(""), policy.every(), every.orElse(""));
        return policy;
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

    /** The raw text of a key; a value that cannot even be read as text counts as missing. */
    static Optional<String> text(Binder binder, String key) {
        try {
            return binder.bind(key, String.class).map(Optional::of).orElse(Optional.empty());
        } catch (RuntimeException e) {
            log.warn("{} could not be read; its default applies", key);
            return Optional.empty();
        }
    }
}
