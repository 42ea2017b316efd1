package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.PurgeExpiredIdempotencyRecords;
import io.changeflow.application.recovery.RetryTransientFailures;
import io.changeflow.application.recovery.SweepStuckRequests;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The recurring jobs; the scheduler adapter runs each on one instance at a time, cluster-wide.
 * Every job is idempotent: a run cut short by a crash runs again in full.
 */
@Configuration(proxyBeanMethods = false)
class RecurringJobsConfiguration {

    /** Attempts older than the longest rate-limit window are useless; purged in chunks. */
    static final Duration RATE_LIMIT_HISTORY = Duration.ofHours(1);
    static final int PURGE_CHUNK = 1000;

    @Bean
    RecurringJob reconcileDeploymentsJob(ReconcileMergedRequests reconcile, WorkflowProperties properties) {
        return new RecurringJob("reconcile-deployments", properties.reconciliationEvery(),
                () -> reconcile.reconcile(ReconcileMergedRequests.Command.scheduled()));
    }

    @Bean
    RecurringJob sweepStuckRequestsJob(SweepStuckRequests sweep, WorkflowProperties properties) {
        return new RecurringJob("sweep-stuck-requests", properties.sweepEvery(),
                () -> sweep.sweep(new SweepStuckRequests.Command()));
    }

    @Bean
    RecurringJob checkApprovalsJob(ReconcileApprovals check) {
        return new RecurringJob("check-approvals", check.policy().every(),
                () -> check.reconcile(new ReconcileApprovals.Command()));
    }

    @Bean
    RecurringJob retryTransientFailuresJob(RetryTransientFailures retry, DeadlineProperties deadlines) {
        return new RecurringJob("retry-transient-failures", deadlines.retryEveryOrDefault(),
                () -> retry.run(new RetryTransientFailures.Command()));
    }

    @Bean
    RecurringJob purgeIdempotencyRecordsJob(PurgeExpiredIdempotencyRecords purge) {
        return new RecurringJob("purge-idempotency-records", Duration.ofMinutes(10),
                () -> purge.purge(PurgeExpiredIdempotencyRecords.Command.defaults()));
    }

    /** GitLab webhook delivery keys past their retention, in bounded chunks (issue 33 item 3). */
    @Bean
    RecurringJob purgeGitLabDeliveriesJob(io.changeflow.application.callback.WakeOnGitLabEvent wake) {
        return new RecurringJob("purge-gitlab-deliveries", Duration.ofHours(1), () -> {
            while (wake.forgetOldDeliveries(PURGE_CHUNK) == PURGE_CHUNK) {
                // keep deleting in bounded chunks until a chunk comes back short
            }
        });
    }

    @Bean
    RecurringJob purgeRateLimitHitsJob(ClusterRateLimits rateLimits) {
        return new RecurringJob("purge-rate-limit-hits", Duration.ofMinutes(5), () -> {
            while (rateLimits.purgeOlderThan(RATE_LIMIT_HISTORY, PURGE_CHUNK) == PURGE_CHUNK) {
                // keep deleting in bounded chunks until a chunk comes back short
            }
            // then the keys (rate_limit_bucket rows) of callers idle for as long: a flood of keys never stays
            while (rateLimits.purgeIdleKeys(RATE_LIMIT_HISTORY, PURGE_CHUNK) == PURGE_CHUNK) {
                // same: bounded chunks
            }
        });
    }
}
