package io.changeflow.adapter.web;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sliding-window log per key, in this instance's memory: "evict timestamps that left the window,
 * check, append" runs inside {@link ConcurrentHashMap#compute}, so it is atomic per key.
 *
 * <p>Memory stays bounded, whatever callers send:
 * <ul>
 *   <li><b>Eviction.</b> A successful acquire always leaves a timestamp, so a key is never dropped
 *       by the acquire itself. An amortised sweep (at most once per window, run inline by the request
 *       that finds it due) drops every key whose newest timestamp has left the window.</li>
 *   <li><b>Hard cap.</b> At most {@code maxKeys} keys are tracked. A new key arriving at the cap
 *       first triggers a sweep (at most once per second); if the map is still full the request is
 *       <em>allowed without being tracked</em> (fail open), and counted. Failing closed would let a
 *       flood of forged keys lock out every legitimate newcomer, and an untracked key gains nothing
 *       a fresh forged key would not; keys already tracked stay limited.</li>
 *   <li><b>Per key</b> at most {@code limit} timestamps, in a ring buffer that grows and shrinks.</li>
 * </ul>
 *
 * Time comes from the injected clock (a clock that steps back only delays eviction).
 */
final class SlidingWindowLimiter {

    /**
     * The answer for one attempt.
     *
     * @param allowed    whether the attempt may proceed
     * @param remaining  attempts left in the current window after this one
     * @param resetAfter until the oldest counted attempt leaves the window (for a refusal: until a slot frees)
     * @param tracked    false when the key was not tracked because the map was full (allowed, fail open)
     */
    record Decision(boolean allowed, int remaining, Duration resetAfter, boolean tracked) {}

    private static final long CAPACITY_SWEEP_EVERY_MILLIS = 1_000;

    private final ConcurrentHashMap<String, TimestampLog> logs = new ConcurrentHashMap<>();
    private final AtomicInteger keys = new AtomicInteger();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private final AtomicLong nextSweepAt;
    private final AtomicLong nextCapacitySweepAt;
    private final Clock clock;
    private final int maxKeys;

    SlidingWindowLimiter(Clock clock, int maxKeys) {
        if (maxKeys <= 0) {
            throw new IllegalArgumentException("maxKeys must be positive");
        }
        this.clock = clock;
        this.maxKeys = maxKeys;
        this.nextSweepAt = new AtomicLong(clock.millis());
        this.nextCapacitySweepAt = new AtomicLong(clock.millis());
    }

    /** Records an attempt for {@code key} if fewer than {@code limit} were recorded in the last {@code window}. */
    Decision tryAcquire(String key, int limit, Duration window) {
        var now = clock.millis();
        var windowMillis = Math.max(1, window.toMillis());
        sweepIfDue(now, windowMillis);
        if (keys.get() >= maxKeys && !logs.containsKey(key)) {
            sweepForCapacity(now, windowMillis);
        }
        var result = new Decision[1];
        logs.compute(key, (k, existing) -> {
            var log = existing;
            if (log == null) {
                if (keys.incrementAndGet() > maxKeys) {
                    keys.decrementAndGet();
                    result[0] = new Decision(true, Math.max(0, limit - 1), Duration.ZERO, false);
                    return null;
                }
                log = new TimestampLog();
            }
            log.evictUpTo(now - windowMillis);
            var allowed = log.size() < limit;
            if (allowed) {
                log.add(now);
            }
            var reset = log.isEmpty() ? 0 : Math.max(0, log.oldest() + windowMillis - now);
            result[0] = new Decision(allowed, Math.max(0, limit - log.size()), Duration.ofMillis(reset), true);
            if (log.isEmpty()) {
                keys.decrementAndGet();
                return null;
            }
            return log;
        });
        return result[0];
    }

    /** Drops every key whose newest attempt left the window; returns how many keys remain. */
    int sweep(Duration window) {
        sweepNow(clock.millis(), Math.max(1, window.toMillis()));
        return keys.get();
    }

    /** How many keys are tracked now. */
    int trackedKeys() {
        return keys.get();
    }

    private void sweepIfDue(long now, long windowMillis) {
        var due = nextSweepAt.get();
        if (now >= due && nextSweepAt.compareAndSet(due, now + windowMillis)) {
            sweepNow(now, windowMillis);
        }
    }

    private void sweepForCapacity(long now, long windowMillis) {
        var due = nextCapacitySweepAt.get();
        if (now >= due && nextCapacitySweepAt.compareAndSet(due, now + CAPACITY_SWEEP_EVERY_MILLIS)) {
            sweepNow(now, windowMillis);
        }
    }

    private void sweepNow(long now, long windowMillis) {
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        try {
            var cutoff = now - windowMillis;
            for (var key : logs.keySet()) {
                logs.computeIfPresent(key, (k, log) -> {
                    log.evictUpTo(cutoff);
                    if (log.isEmpty()) {
                        keys.decrementAndGet();
                        return null;
                    }
                    log.compact();
                    return log;
                });
            }
        } finally {
            sweeping.set(false);
        }
    }

    /** Timestamps of one key, oldest first, in a ring buffer (guarded by the map's per-key lock). */
    static final class TimestampLog {

        private static final int INITIAL_CAPACITY = 2;

        private long[] ring = new long[INITIAL_CAPACITY];
        private int head;
        private int size;

        void add(long timestamp) {
            if (size == ring.length) {
                resize(ring.length * 2);
            }
            ring[(head + size) % ring.length] = timestamp;
            size++;
        }

        /** Removes every timestamp at or before {@code cutoff} (they left the window). */
        void evictUpTo(long cutoff) {
            while (size > 0 && ring[head] <= cutoff) {
                head = (head + 1) % ring.length;
                size--;
            }
        }

        /** Gives back memory after a burst. */
        void compact() {
            if (ring.length > INITIAL_CAPACITY * 4 && size <= ring.length / 4) {
                resize(Math.max(INITIAL_CAPACITY, size * 2));
            }
        }

        long oldest() {
            return ring[head];
        }

        int size() {
            return size;
        }

        boolean isEmpty() {
            return size == 0;
        }

        private void resize(int capacity) {
            var copy = new long[capacity];
            for (var i = 0; i < size; i++) {
                copy[i] = ring[(head + i) % ring.length];
            }
            ring = copy;
            head = 0;
        }
    }
}
