package io.changeflow.domain.polling;

import java.time.Duration;
import java.util.Optional;

/**
 * Up to {@code maxRetries} retries after the first attempt, spaced by {@code backoff}. Used by the
 * bot approval step: after failure number n, retry after the returned delay, or give up when empty.
 */
public record RetryPolicy(int maxRetries, ExponentialBackoff backoff) {

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must not be negative");
        }
    }

    /** @param failedAttempts attempts that failed so far (1 after the first failure) */
    public Optional<Duration> afterFailure(int failedAttempts) {
        return failedAttempts > maxRetries ? Optional.empty() : Optional.of(backoff.delayBefore(failedAttempts));
    }
}
