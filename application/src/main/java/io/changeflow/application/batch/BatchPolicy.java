package io.changeflow.application.batch;

import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * The limits of batch aggregation (set at startup).
 *
 * @param maxRequests   the most requests one round claims into one batch
 * @param maxSplits     how many times the members of a failing batch are split in halves before the remaining
 *                      group gives up (every member fails with CONTACT_MAINTAINERS)
 * @param timeout       an active batch (RUNNING or BLOCKED) older than this (database clock) is settled by the sweep
 *                      as a last try, whatever step it holds, and abandoned when it cannot be settled (issue 36)
 * @param lostTaskAfter a RUNNING batch older than this whose step is neither pending nor running is resumed
 * @param transientRetry how many transient (or unknown) batch failures a member may go through alone and still
 *                      wait again, and its backoff ({@link io.changeflow.domain.batch.TransientRetries})
 */
public record BatchPolicy(int maxRequests, int maxSplits, Duration timeout, Duration lostTaskAfter,
                          RetryPolicy transientRetry) {

    public static final int DEFAULT_MAX_REQUESTS = 16;
    public static final int DEFAULT_MAX_SPLITS = 4;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(2);
    public static final Duration DEFAULT_LOST_TASK_AFTER = Duration.ofMinutes(10);
    public static final int DEFAULT_TRANSIENT_RETRIES = 5;
    public static final Duration DEFAULT_TRANSIENT_BACKOFF_BASE = Duration.ofMinutes(1);
    public static final Duration DEFAULT_TRANSIENT_BACKOFF_MAX = Duration.ofMinutes(30);
    public static final RetryPolicy DEFAULT_TRANSIENT_RETRY = new RetryPolicy(DEFAULT_TRANSIENT_RETRIES,
            new ExponentialBackoff(DEFAULT_TRANSIENT_BACKOFF_BASE, DEFAULT_TRANSIENT_BACKOFF_MAX));

    public BatchPolicy {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(transientRetry, "transientRetry");
        Objects.requireNonNull(lostTaskAfter, "lostTaskAfter");
        if (maxRequests < 1) {
            throw new IllegalArgumentException("a batch takes at least one request, was " + maxRequests);
        }
        if (maxSplits < 0) {
            throw new IllegalArgumentException("max splits must not be negative, was " + maxSplits);
        }
        if (lostTaskAfter.isNegative() || lostTaskAfter.isZero() || timeout.compareTo(lostTaskAfter) <= 0) {
            throw new IllegalArgumentException("need 0 < lostTaskAfter < timeout");
        }
    }

    /** With the default transient retries. */
    public BatchPolicy(int maxRequests, int maxSplits, Duration timeout, Duration lostTaskAfter) {
        this(maxRequests, maxSplits, timeout, lostTaskAfter, DEFAULT_TRANSIENT_RETRY);
    }

    public static BatchPolicy defaults() {
        return new BatchPolicy(DEFAULT_MAX_REQUESTS, DEFAULT_MAX_SPLITS, DEFAULT_TIMEOUT, DEFAULT_LOST_TASK_AFTER);
    }
}
