package io.changeflow.application.workflow;

import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.JitteredBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.polling.TieredPolling;
import java.time.Clock;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.Objects;

/**
 * The static timings and limits of the workflow steps (set at startup; the dynamic settings such as
 * {@code approval.maxRetries} are read per use from {@code Settings}). The approval bots are not here:
 * they are the GitLab adapter's configuration, read from {@code MergeRequests.approvalAccounts()}.
 *
 * @param approvalBackoff     delay before approval retry n of one bot ({@code approval.maxRetries} bounds n)
 * @param pipelinePolling     waiting for a merge request pipeline: short, then long intervals, then "timed out"
 * @param rebasePolling       waiting for a rebase to finish
 * @param mergeabilityPolling waiting for GitLab to finish checking whether a merge request can be merged, before
 *                            merging and after a refusal it explains; uses up no merge attempt, then merging is stuck
 * @param pendingRecheck      after a pipeline timed out (state "pending"), how often it is still looked at
 * @param pendingGiveUpAfter  the pending deadline: how long a pending pipeline is still looked at
 *                            ({@code changeflow.workflow.pipeline.pending-deadline})
 * @param transientRetry      the least number of retries after a transient external failure before the transient
 *                            deadline is considered, and their capped exponential delays (see {@link StepSafetyNet})
 * @param mergeRetries        merge attempts refused although GitLab had finished checking, or without a clear
 *                            answer, before giving up
 * @param mergeRetryBackoff   delay before such a merge retry n (exponential, with jitter)
 * @param maxRebases          rebases of one merge request within one handle step before giving up
 * @param maxRegenerations    how often one handle (or batch) step generates its change again on the current
 *                            target branch after a rebase conflict; a conflict after that is deterministic
 * @param closeRetries        re-checks of a merge request that is still open after being closed
 * @param transientDeadline   how long a stretch of transient failures without progress is retried automatically
 */
public record WorkflowPolicy(ExponentialBackoff approvalBackoff,
                             TieredPolling pipelinePolling, TieredPolling rebasePolling,
                             TieredPolling mergeabilityPolling, Duration pendingRecheck, Duration pendingGiveUpAfter,
                             RetryPolicy transientRetry, int mergeRetries, JitteredBackoff mergeRetryBackoff,
                             int maxRebases, int maxRegenerations, int closeRetries, Duration transientDeadline) {

    /** The share of each merge retry delay that is random ("equal jitter": at least half the exponential delay). */
    public static final double MERGE_RETRY_JITTER = 0.5;

    public WorkflowPolicy {
        Objects.requireNonNull(approvalBackoff, "approvalBackoff");
        Objects.requireNonNull(pipelinePolling, "pipelinePolling");
        Objects.requireNonNull(rebasePolling, "rebasePolling");
        Objects.requireNonNull(mergeabilityPolling, "mergeabilityPolling");
        Objects.requireNonNull(pendingRecheck, "pendingRecheck");
        Objects.requireNonNull(pendingGiveUpAfter, "pendingGiveUpAfter");
        Objects.requireNonNull(transientRetry, "transientRetry");
        Objects.requireNonNull(mergeRetryBackoff, "mergeRetryBackoff");
        if (mergeRetries < 0 || maxRebases < 0 || maxRegenerations < 0 || closeRetries < 0) {
            throw new IllegalArgumentException("retry limits must not be negative");
        }
        transientDeadline = TransientRetries.orDefault(transientDeadline);
    }

    /** The policy with the default transient deadline ({@link TransientRetries#DEFAULT_DEADLINE}). */
    public WorkflowPolicy(ExponentialBackoff approvalBackoff, TieredPolling pipelinePolling, TieredPolling rebasePolling,
                          TieredPolling mergeabilityPolling, Duration pendingRecheck, Duration pendingGiveUpAfter,
                          RetryPolicy transientRetry, int mergeRetries, JitteredBackoff mergeRetryBackoff,
                          int maxRebases, int maxRegenerations, int closeRetries) {
        this(approvalBackoff, pipelinePolling, rebasePolling, mergeabilityPolling, pendingRecheck, pendingGiveUpAfter,
                transientRetry, mergeRetries, mergeRetryBackoff, maxRebases, maxRegenerations, closeRetries,
                TransientRetries.DEFAULT_DEADLINE);
    }

    /** The transient retries of the workflow steps: {@link #transientRetry} as a floor, until {@link #transientDeadline}. */
    public TransientRetries transientRetries(Clock clock, DoubleSupplier random) {
        return TransientRetries.until(transientRetry, transientDeadline, clock, random);
    }

    /** The watch of a merge request's pipeline: {@link #pipelinePolling}, rechecked while pending, up to the pending deadline. */
    public PipelineWatch pipelineWatch() {
        return new PipelineWatch(pipelinePolling, pendingRecheck, pendingGiveUpAfter);
    }

    /**
     * This policy with the pipeline waits polling no more often than every {@code fallback} (issue 33: while GitLab's
     * webhooks wake the waiting steps, polling is only the fallback for a lost event). The waits keep their timeout;
     * a fallback longer than it is cut to it, a zero or negative one changes nothing.
     */
    public WorkflowPolicy withFallbackPipelinePolling(Duration fallback) {
        if (fallback.isZero() || fallback.isNegative()) {
            return this;
        }
        var every = fallback.compareTo(pipelinePolling.timeout()) > 0 ? pipelinePolling.timeout() : fallback;
        var slower = new TieredPolling(max(pipelinePolling.shortInterval(), every), pipelinePolling.shortAttempts(),
                max(pipelinePolling.longInterval(), every), pipelinePolling.timeout());
        return new WorkflowPolicy(approvalBackoff, slower, rebasePolling, mergeabilityPolling, pendingRecheck,
                pendingGiveUpAfter, transientRetry, mergeRetries, mergeRetryBackoff, maxRebases, maxRegenerations,
                closeRetries, transientDeadline);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The delay before the first merge retry, without jitter (also the pace of re-checking a batch settlement). */
    public Duration mergeRetryDelay() {
        return mergeRetryBackoff.backoff().base();
    }

    /** Production-like defaults. */
    public static WorkflowPolicy defaults() {
        return new WorkflowPolicy(new ExponentialBackoff(Duration.ofSeconds(5), Duration.ofMinutes(5)),
                new TieredPolling(Duration.ofSeconds(10), 6, Duration.ofMinutes(1), Duration.ofMinutes(30)),
                new TieredPolling(Duration.ofSeconds(5), 6, Duration.ofSeconds(20), Duration.ofMinutes(10)),
                new TieredPolling(Duration.ofSeconds(2), 15, Duration.ofSeconds(10), Duration.ofMinutes(5)),
                Duration.ofMinutes(10), Duration.ofHours(24),
                new RetryPolicy(8, new ExponentialBackoff(Duration.ofSeconds(2), Duration.ofMinutes(1))),
                5, new JitteredBackoff(new ExponentialBackoff(Duration.ofSeconds(10), Duration.ofMinutes(2)), MERGE_RETRY_JITTER),
                3, 3, 5);
    }
}
