package io.changeflow.application.batch;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits of batch aggregation (set at startup).
 *
 * @param maxRequests   the most requests one round claims into one batch
 * @param maxSplits     how many times the members of a failing batch are split in halves before the
 *                      remaining group gives up (every member fails with CONTACT_MAINTAINERS); with 4,
 *                      a batch of up to 16 is bisected down to single requests
 * @param timeout       a RUNNING batch older than this (database clock) is settled by the sweep; must exceed
 *                      the longest legitimate run of the batch step (a pipeline that times out blocks the
 *                      batch instead, and blocked batches wait for an operator)
 * @param lostTaskAfter a RUNNING batch older than this whose step is neither pending nor running is
 *                      resumed by the sweep (its step is scheduled again; it re-reads remote state first)
 */
public record BatchPolicy(int maxRequests, int maxSplits, Duration timeout, Duration lostTaskAfter) {

    public static final int DEFAULT_MAX_REQUESTS = 16;
    public static final int DEFAULT_MAX_SPLITS = 4;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(2);
    public static final Duration DEFAULT_LOST_TASK_AFTER = Duration.ofMinutes(10);

    public BatchPolicy {
        Objects.requireNonNull(timeout, "timeout");
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

    public static BatchPolicy defaults() {
        return new BatchPolicy(DEFAULT_MAX_REQUESTS, DEFAULT_MAX_SPLITS, DEFAULT_TIMEOUT, DEFAULT_LOST_TASK_AFTER);
    }
}
