package io.changeflow.bootstrap;

import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.SweepStuckRequests;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.JitteredBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.polling.TieredPolling;
import io.changeflow.domain.reconcile.ReconciliationMatching;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Static timings of the workflow ({@code changeflow.workflow.*}), read at startup. Every value has a
 * finite default; a missing or non-positive duration falls back to it. The dynamic settings
 * ({@code approval.maxRetries}, {@code workflow.approveFirst}, ...) are read per use instead.
 */
@ConfigurationProperties("changeflow.workflow")
record WorkflowProperties(Polling pipeline, Polling rebase, Polling mergeability, Duration approvalBackoffBase,
                          Duration approvalBackoffMax, Duration pendingRecheck, Duration pendingGiveUpAfter,
                          Integer transientRetries, Duration transientBackoffBase, Duration transientBackoffMax,
                          Integer mergeRetries, Duration mergeRetryDelay, Duration mergeRetryDelayMax, Integer maxRebases,
                          Integer maxRegenerations, Integer closeRetries, Sweep sweep, Reconciliation reconciliation,
                          Duration idempotencyKeyTimeToLive) {

    /** Tiered polling: {@code shortAttempts} waits of {@code shortInterval}, then {@code longInterval}, up to {@code timeout}. */
    record Polling(Duration shortInterval, Integer shortAttempts, Duration longInterval, Duration timeout) {

        TieredPolling toPolicy(TieredPolling defaults) {
            return new TieredPolling(or(shortInterval, defaults.shortInterval()),
                    shortAttempts == null || shortAttempts < 0 ? defaults.shortAttempts() : shortAttempts,
                    or(longInterval, defaults.longInterval()), or(timeout, defaults.timeout()));
        }
    }

    /** The stuck-request sweep: re-schedule after {@code lostTaskAfter} of silence, fail after {@code failAfter}. */
    record Sweep(Duration every, Duration lostTaskAfter, Duration failAfter, Integer limit) {}

    /**
     * Lost deploy callbacks: every {@code every}, the next page of merged records last written more than
     * {@code minAge} ago; {@code maxAge} is no longer used (nothing falls out of a window). {@code matching}:
     * {@code exact} (default), {@code watermark} or {@code exact-with-watermark-fallback}, overridden per GitLab
     * project path by {@code matchingByProject}; anything unrecognised is {@code exact}.
     */
    record Reconciliation(Duration every, Duration minAge, Duration maxAge, String matching,
                          Map<String, String> matchingByProject) {}

    WorkflowPolicy toPolicy() {
        var d = WorkflowPolicy.defaults();
        var mergeRetryBase = or(mergeRetryDelay, d.mergeRetryBackoff().backoff().base());
        return new WorkflowPolicy(
                new ExponentialBackoff(or(approvalBackoffBase, d.approvalBackoff().base()),
                        or(approvalBackoffMax, d.approvalBackoff().max())),
                pipeline == null ? d.pipelinePolling() : pipeline.toPolicy(d.pipelinePolling()),
                rebase == null ? d.rebasePolling() : rebase.toPolicy(d.rebasePolling()),
                mergeability == null ? d.mergeabilityPolling() : mergeability.toPolicy(d.mergeabilityPolling()),
                or(pendingRecheck, d.pendingRecheck()), or(pendingGiveUpAfter, d.pendingGiveUpAfter()),
                new RetryPolicy(nonNegative(transientRetries, d.transientRetry().maxRetries()),
                        new ExponentialBackoff(or(transientBackoffBase, d.transientRetry().backoff().base()),
                                or(transientBackoffMax, d.transientRetry().backoff().max()))),
                nonNegative(mergeRetries, d.mergeRetries()),
                new JitteredBackoff(new ExponentialBackoff(mergeRetryBase,
                        or(mergeRetryDelayMax, max(mergeRetryBase, d.mergeRetryBackoff().backoff().max()))),
                        WorkflowPolicy.MERGE_RETRY_JITTER),
                nonNegative(maxRebases, d.maxRebases()), nonNegative(maxRegenerations, d.maxRegenerations()),
                nonNegative(closeRetries, d.closeRetries()));
    }

    SweepStuckRequests.Policy sweepPolicy() {
        var d = SweepStuckRequests.Policy.defaults();
        if (sweep == null) {
            return d;
        }
        return new SweepStuckRequests.Policy(or(sweep.lostTaskAfter(), d.lostTaskAfter()),
                or(sweep.failAfter(), d.failAfter()), sweep.limit() == null || sweep.limit() < 1 ? d.limit() : sweep.limit());
    }

    Duration sweepEvery() {
        return sweep == null ? Duration.ofMinutes(1) : or(sweep.every(), Duration.ofMinutes(1));
    }

    ReconcileMergedRequests.Policy reconciliationPolicy() {
        var defaults = ReconcileMergedRequests.Policy.defaults();
        if (reconciliation == null) {
            return defaults;
        }
        return new ReconcileMergedRequests.Policy(or(reconciliation.minAge(), defaults.minAge()), defaults.candidates(),
                ReconciliationMatching.parse(reconciliation.matching(), reconciliation.matchingByProject()));
    }

    Duration reconciliationEvery() {
        return reconciliation == null ? Duration.ofMinutes(5) : or(reconciliation.every(), Duration.ofMinutes(5));
    }

    Duration keyTimeToLive(Duration fallback) {
        return or(idempotencyKeyTimeToLive, fallback);
    }

    private static Duration or(Duration value, Duration fallback) {
        return value == null || value.isNegative() || value.isZero() ? fallback : value;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static int nonNegative(Integer value, int fallback) {
        return value == null || value < 0 ? fallback : value;
    }
}
