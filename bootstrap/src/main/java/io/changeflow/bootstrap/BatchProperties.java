package io.changeflow.bootstrap;

import io.changeflow.application.batch.BatchPolicy;
import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Batch aggregation ({@code changeflow.batch.*}): how often rounds run, how big a batch may be, how
 * often a failing batch is split, when a running batch counts as stuck, and how often a member may fail
 * transiently (with which backoff) before it leaves the batch path. Missing, zero or negative values fall
 * back to the defaults.
 */
@ConfigurationProperties("changeflow.batch")
record BatchProperties(Duration roundInterval, Integer maxRequests, Integer maxSplits, Duration timeout,
                       Duration lostTaskAfter, Duration sweepInterval, Integer transientRetries,
                       Duration transientBackoffBase, Duration transientBackoffMax) {

    BatchPolicy toPolicy() {
        var base = positive(transientBackoffBase, BatchPolicy.DEFAULT_TRANSIENT_BACKOFF_BASE);
        var max = positive(transientBackoffMax, BatchPolicy.DEFAULT_TRANSIENT_BACKOFF_MAX);
        return new BatchPolicy(positive(maxRequests, BatchPolicy.DEFAULT_MAX_REQUESTS),
                maxSplits == null || maxSplits < 0 ? BatchPolicy.DEFAULT_MAX_SPLITS : maxSplits,
                positive(timeout, BatchPolicy.DEFAULT_TIMEOUT), positive(lostTaskAfter, BatchPolicy.DEFAULT_LOST_TASK_AFTER),
                new RetryPolicy(positive(transientRetries, BatchPolicy.DEFAULT_TRANSIENT_RETRIES),
                        new ExponentialBackoff(base, max.compareTo(base) < 0 ? base : max)));
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
