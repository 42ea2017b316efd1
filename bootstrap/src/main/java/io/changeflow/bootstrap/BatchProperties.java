package io.changeflow.bootstrap;

import io.changeflow.application.batch.BatchPolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Batch aggregation ({@code changeflow.batch.*}): how often rounds run, how big a batch may be, how
 * often a failing batch is split, and when a running batch counts as stuck. Missing, zero or
 * negative values fall back to the defaults.
 */
@ConfigurationProperties("changeflow.batch")
record BatchProperties(Duration roundInterval, Integer maxRequests, Integer maxSplits, Duration timeout,
                       Duration lostTaskAfter, Duration sweepInterval) {

    BatchPolicy toPolicy() {
        return new BatchPolicy(positive(maxRequests, BatchPolicy.DEFAULT_MAX_REQUESTS),
                maxSplits == null || maxSplits < 0 ? BatchPolicy.DEFAULT_MAX_SPLITS : maxSplits,
                positive(timeout, BatchPolicy.DEFAULT_TIMEOUT), positive(lostTaskAfter, BatchPolicy.DEFAULT_LOST_TASK_AFTER));
    }

    Duration rounds() {
        return positive(roundInterval, Duration.ofMinutes(1));
    }

    Duration sweeps() {
        return positive(sweepInterval, Duration.ofMinutes(1));
    }

    private static int positive(Integer value, int fallback) {
        return value == null || value < 1 ? fallback : value;
    }

    private static Duration positive(Duration value, Duration fallback) {
        return value == null || value.isZero() || value.isNegative() ? fallback : value;
    }
}
