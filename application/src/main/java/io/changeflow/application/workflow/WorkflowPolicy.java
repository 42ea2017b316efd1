package io.changeflow.application.workflow;

import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.polling.TieredPolling;
import java.time.Duration;
import java.util.Objects;

/**
 * The static timings and limits of the workflow steps (set at startup; the dynamic settings such as
 * {@code approval.maxRetries} are read per use from {@code Settings}). The approval bots are not here:
 * they are the GitLab adapter's configuration, read from {@code MergeRequests.approvalAccounts()}.
 *
 * @param approvalBackoff    delay before approval retry n of one bot ({@code approval.maxRetries} bounds n)
 * @param pipelinePolling    waiting for a merge request pipeline: short, then long intervals, then "timed out"
 * @param rebasePolling      waiting for a rebase to finish
 * @param pendingRecheck     after a pipeline timed out (state "pending"), how often it is still looked at
 * @param pendingGiveUpAfter how long a pending pipeline is still looked at before an operator has to confirm
 * @param transientRetry     retries of a step after a transient external failure (timeouts, 5xx, 429)
 * @param mergeRetries       merge attempts refused as "sha moved, locked or not mergeable yet" before giving up
 * @param mergeRetryDelay    delay before such a merge retry (the merge request is re-read first)
 * @param maxRebases         rebases of one merge request within one handle step before giving up
 * @param closeRetries       re-checks of a merge request that is still open after being closed
 */
public record WorkflowPolicy(ExponentialBackoff approvalBackoff,
                             TieredPolling pipelinePolling, TieredPolling rebasePolling, Duration pendingRecheck,
                             Duration pendingGiveUpAfter, RetryPolicy transientRetry, int mergeRetries,
                             Duration mergeRetryDelay, int maxRebases, int closeRetries) {

    public WorkflowPolicy {
        Objects.requireNonNull(approvalBackoff, "approvalBackoff");
        Objects.requireNonNull(pipelinePolling, "pipelinePolling");
        Objects.requireNonNull(rebasePolling, "rebasePolling");
        Objects.requireNonNull(pendingRecheck, "pendingRecheck");
        Objects.requireNonNull(pendingGiveUpAfter, "pendingGiveUpAfter");
        Objects.requireNonNull(transientRetry, "transientRetry");
        Objects.requireNonNull(mergeRetryDelay, "mergeRetryDelay");
        if (mergeRetries < 0 || maxRebases < 0 || closeRetries < 0) {
            throw new IllegalArgumentException("retry limits must not be negative");
        }
    }

    /** Production-like defaults. */
    public static WorkflowPolicy defaults() {
        return new WorkflowPolicy(new ExponentialBackoff(Duration.ofSeconds(5), Duration.ofMinutes(5)),
                new TieredPolling(Duration.ofSeconds(10), 6, Duration.ofMinutes(1), Duration.ofMinutes(30)),
                new TieredPolling(Duration.ofSeconds(5), 6, Duration.ofSeconds(20), Duration.ofMinutes(10)),
                Duration.ofMinutes(10), Duration.ofHours(24),
                new RetryPolicy(8, new ExponentialBackoff(Duration.ofSeconds(5), Duration.ofMinutes(5))),
                5, Duration.ofSeconds(10), 3, 5);
    }
}
