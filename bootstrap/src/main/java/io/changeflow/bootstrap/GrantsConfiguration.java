package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.application.grant.ListExpiringGrants;
import io.changeflow.application.grant.RemoveGrant;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.query.ExportGrantLives;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.workflow.StepLauncher;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The grant's whole life (issue 18): the expiry job, the give-up / revocation use case and the operators' count of
 * grants expiring soon. The keys
 * {@value #GRACE} and {@value #EVERY} are read as text and resolved fail-safe ({@link ExpireGrants.Policy#of}):
 * a missing, garbled or negative grace is 0 (never "never expire"); a missing, garbled, zero or negative interval
 * is 1 min. Neither stops the service from starting.
 */
@Configuration(proxyBeanMethods = false)
class GrantsConfiguration {

    static final String GRACE = "changeflow.grants.expiry-grace";
    static final String EVERY = "changeflow.grants.expiry-every";

    @Bean
    ExpireGrants.Policy expireGrantsPolicy(Environment environment) {
        return FailSafeSettings.resolve(environment, GRACE, EVERY, ExpireGrants.Policy::of,
                ExpireGrants.Policy::grace, ExpireGrants.Policy::every);
    }

    @Bean
    ExpireGrants expireGrants(Operations operations, Batches batches, Targets targets, StepLauncher launcher,
                              ReconcileApprovals approvalCheck, CloseChangeRequest close, ExpireGrants.Policy policy) {
        return new ExpireGrants(operations, batches, targets, launcher, approvalCheck, close, policy);
    }

    @Bean
    RecurringJob expireGrantsJob(ExpireGrants expire, ExpireGrants.Policy policy) {
        return new RecurringJob("expire-grants", policy.every(), () -> expire.run(new ExpireGrants.Command()));
    }

    @Bean
    ListExpiringGrants listExpiringGrants(Operations operations) {
        return new ListExpiringGrants(operations);
    }

    @Bean
    ExportGrantLives exportGrantLives(GrantRecords records) {
        return new ExportGrantLives(records);
    }

    @Bean
    io.changeflow.application.grant.RevokeUrgently revokeUrgently(RemoveGrant removeGrant,
            io.changeflow.application.batch.RunBatchRound round, Targets targets) {
        return new io.changeflow.application.grant.RevokeUrgently(removeGrant, round, targets);
    }

    @Bean
    RemoveGrant removeGrant(Operations operations, Batches batches, Targets targets, StepLauncher launcher, AuditLog audit,
                            Clock clock) {
        return new RemoveGrant(operations, batches, targets, launcher, audit, clock);
    }
}
