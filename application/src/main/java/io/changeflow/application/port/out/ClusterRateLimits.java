package io.changeflow.application.port.out;

import java.time.Duration;

/**
 * One rate-limit quota shared by every instance, kept in the shared database
 * ({@code ratelimit.scope=cluster}). Callers fail open: if this throws, the request is allowed and
 * the failure is counted.
 */
public interface ClusterRateLimits {

    /**
     * Records one attempt for {@code key} if fewer than {@code limit} attempts were recorded in the
     * last {@code window} (database clock).
     *
     * @return the decision; when refused, how long until a slot frees up
     */
    Decision tryAcquire(String key, int limit, Duration window);

    /** Allowed, or refused with the time until the oldest counted attempt leaves the window. */
    record Decision(boolean allowed, Duration retryAfter, int remaining) {}

    /** Deletes attempts older than {@code window}, up to {@code chunkSize}; returns how many. */
    int purgeOlderThan(Duration window, int chunkSize);

    /**
     * Forgets up to {@code chunkSize} keys that saw no attempt for {@code idleFor} (and exist at least that
     * long), so the keys of callers gone for good do not stay forever. Safe while the key is in use: a key
     * forgotten is created again by its next {@link #tryAcquire}, and its counted attempts are unaffected.
     *
     * @return how many keys were forgotten; callers loop until it is below {@code chunkSize}
     */
    int purgeIdleKeys(Duration idleFor, int chunkSize);
}
