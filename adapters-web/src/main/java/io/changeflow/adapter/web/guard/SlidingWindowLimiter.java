package io.changeflow.adapter.web.guard;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sliding-window logs per key, in this instance's memory: "evict timestamps that left the window,
 * check, append" runs inside {@link ConcurrentHashMap#compute}, so it is atomic per key.
 *
 * <p>Two bounded tables, so that a flood of forged client addresses can never push people out:
 * {@link Kind#IDENTITY} keys (a login identity, at most {@code maxIdentityKeys}) and
 * {@link Kind#ADDRESS} keys (a client address, IPv6 grouped by /64 by the caller, at most
 * {@code maxAddressKeys}). Memory stays bounded, whatever callers send:
 * <ul>
 *   <li><b>Eviction.</b> A successful acquire always leaves a timestamp, so a key is never dropped
 *       by the acquire itself. An amortised sweep (at most once per window, run inline by the request
 *       that finds it due) drops every key whose newest timestamp has left the window.</li>
 *   <li><b>Hard caps.</b> A new key arriving at its table's cap first triggers a sweep of idle keys (at
 *       most once per second); the address table then also evicts its least recently used tenth.
 *       Identity keys are never evicted while in use.</li>
 *   <li><b>Overflow.</b> A key that still cannot be tracked is limited through the shared overflow
 *       bucket of its table (one log per quota name, the same quota): it is never let through
 *       unlimited, and a flood of new keys shares one quota ({@link Decision#tracked()} false).</li>
 *   <li><b>Per key</b> at most {@code limit} timestamps, in a ring buffer that grows and shrinks.</li>
 * </ul>
 *
 * Time comes from the injected clock (a clock that steps back only delays eviction).
 */
public final class SlidingWindowLimiter {

    /** Which table a key belongs to. */
    enum Kind {
        /** A login identity: never evicted while in use, so a flood of forged addresses cannot reset a person's quota. */
        IDENTITY,
        /** A client address (IPv6 by /64): evicted first, idle ones then the least recently used. */
        ADDRESS
    }

    /**
     * The answer for one attempt.
     *
     * @param allowed    whether the attempt may proceed
     * @param remaining  attempts left in the current window after this one
     * @param resetAfter until the oldest counted attempt leaves the window (for a refusal: until a slot frees)
     * @param tracked    false when the key had no slot in its full table and was limited through the overflow bucket
     */
    record Decision(boolean allowed, int remaining, Duration resetAfter, boolean tracked) {}

    private static final long CAPACITY_SWEEP_EVERY_MILLIS = 1_000;
    private static final String DEFAULT_OVERFLOW = "*";

    private final Table identities;
    private final Table addresses;
    private final Clock clock;

    /** One cap for both tables (the benchmarks' and older callers' form). */
    public SlidingWindowLimiter(Clock clock, int maxKeys) {
        this(clock, maxKeys, maxKeys);
    }

    public SlidingWindowLimiter(Clock clock, int maxIdentityKeys, int maxAddressKeys) {
        if (maxIdentityKeys <= 0 || maxAddressKeys <= 0) {
            throw new IllegalArgumentException("maxKeys must be positive");
        }
        this.clock = clock;
        this.identities = new Table(maxIdentityKeys, false, clock.millis());
        this.addresses = new Table(maxAddressKeys, true, clock.millis());
    }

    /** An identity key with one overflow bucket for all quotas (see {@link #tryAcquire(String, String, Kind, int, Duration)}). */
    Decision tryAcquire(String key, int limit, Duration window) {
        return tryAcquire(key, DEFAULT_OVERFLOW, Kind.IDENTITY, limit, window);
    }

    /**
     * Records an attempt for {@code key} if fewer than {@code limit} were recorded in the last
     * {@code window}; a key its table cannot track counts in the overflow bucket named {@code quota}.
     */
    Decision tryAcquire(String key, String quota, Kind kind, int limit, Duration window) {
        var now = clock.millis();
        var windowMillis = Math.max(1, window.toMillis());
        // either kind of request sweeps the other table when due, so both empty once a flood stops
        (kind == Kind.ADDRESS ? identities : addresses).sweepIfDue(now, windowMillis);
        return (kind == Kind.ADDRESS ? addresses : identities).tryAcquire(key, quota, limit, now, windowMillis);
    }

    /** Drops every key whose newest attempt left the window; returns how many keys remain (both tables). */
    int sweep(Duration window) {
        var now = clock.millis();
        var windowMillis = Math.max(1, window.toMillis());
        identities.sweepNow(now, windowMillis);
        addresses.sweepNow(now, windowMillis);
        return trackedKeys();
    }

    /** How many keys are tracked now (both tables). */
    int trackedKeys() {
        return identities.keys.get() + addresses.keys.get();
    }

    /** How many keys of {@code kind} are tracked now. */
    int trackedKeys(Kind kind) {
        return (kind == Kind.ADDRESS ? addresses : identities).keys.get();
    }

    /** One bounded table of logs with its overflow buckets. */
    private static final class Table {

        private final ConcurrentHashMap<String, TimestampLog> logs = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<String, TimestampLog> overflow = new ConcurrentHashMap<>();
        private final AtomicInteger keys = new AtomicInteger();
        private final AtomicBoolean sweeping = new AtomicBoolean();
        private final AtomicLong nextSweepAt;
        private final AtomicLong nextCapacitySweepAt;
        private final int maxKeys;
        private final boolean evictLeastRecentlyUsed;

        Table(int maxKeys, boolean evictLeastRecentlyUsed, long now) {
            this.maxKeys = maxKeys;
            this.evictLeastRecentlyUsed = evictLeastRecentlyUsed;
            this.nextSweepAt = new AtomicLong(now);
            this.nextCapacitySweepAt = new AtomicLong(now);
        }

        Decision tryAcquire(String key, String quota, int limit, long now, long windowMillis) {
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
                        return null;
                    }
                    log = new TimestampLog();
                }
                result[0] = attempt(log, limit, now, windowMillis, true);
                if (log.isEmpty()) {
                    keys.decrementAndGet();
                    return null;
                }
                return log;
            });
            if (result[0] != null) {
                return result[0];
            }
            // No slot: the shared overflow bucket of this quota decides (bounded: one log per quota name).
            var shared = new Decision[1];
            overflow.compute(quota, (q, existing) -> {
                var log = existing == null ? new TimestampLog() : existing;
                shared[0] = attempt(log, limit, now, windowMillis, false);
                return log;
            });
            return shared[0];
        }

        private static Decision attempt(TimestampLog log, int limit, long now, long windowMillis, boolean tracked) {
            log.evictUpTo(now - windowMillis);
            var allowed = log.size() < limit;
            if (allowed) {
                log.add(now);
            }
            var reset = log.isEmpty() ? 0 : Math.max(0, log.oldest() + windowMillis - now);
            return new Decision(allowed, Math.max(0, limit - log.size()), Duration.ofMillis(reset), tracked);
        }

        void sweepIfDue(long now, long windowMillis) {
            var due = nextSweepAt.get();
            if (now >= due && nextSweepAt.compareAndSet(due, now + windowMillis)) {
                sweepNow(now, windowMillis);
            }
        }

        private void sweepForCapacity(long now, long windowMillis) {
            var due = nextCapacitySweepAt.get();
            if (now >= due && nextCapacitySweepAt.compareAndSet(due, now + CAPACITY_SWEEP_EVERY_MILLIS)) {
                sweepNow(now, windowMillis);
                if (evictLeastRecentlyUsed && keys.get() >= maxKeys) {
                    evictLeastRecentlyUsed();
                }
            }
        }

        void sweepNow(long now, long windowMillis) {
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
                for (var quota : overflow.keySet()) {
                    overflow.computeIfPresent(quota, (q, log) -> {
                        log.evictUpTo(cutoff);
                        return log.isEmpty() ? null : log;
                    });
                }
            } finally {
                sweeping.set(false);
            }
        }

        /** Drops the least recently used tenth of the keys (by their newest attempt), at least one. */
        private void evictLeastRecentlyUsed() {
            if (!sweeping.compareAndSet(false, true)) {
                return;
            }
            try {
                var newest = logs.values().stream().mapToLong(TimestampLog::newestOrZero).sorted().toArray();
                if (newest.length == 0) {
                    return;
                }
                var cutoff = newest[Math.max(0, newest.length / 10 - 1)];
                for (var key : logs.keySet()) {
                    logs.computeIfPresent(key, (k, log) -> {
                        if (log.isEmpty() || log.newest() <= cutoff) {
                            keys.decrementAndGet();
                            return null;
                        }
                        return log;
                    });
                }
            } finally {
                sweeping.set(false);
            }
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

        long newest() {
            return ring[(head + size - 1) % ring.length];
        }

        /** The newest timestamp, or 0 when empty (read without the key's lock: an estimate for eviction only). */
        long newestOrZero() {
            var currentSize = size;
            var currentRing = ring;
            return currentSize <= 0 ? 0 : currentRing[Math.floorMod(head + currentSize - 1, currentRing.length)];
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
