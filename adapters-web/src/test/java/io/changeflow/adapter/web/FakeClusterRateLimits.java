package io.changeflow.adapter.web;

import io.changeflow.application.port.out.ClusterRateLimits;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** An in-memory stand-in for the shared database quota, which can be told to fail or hang. */
final class FakeClusterRateLimits implements ClusterRateLimits {

    private final Map<String, List<Long>> attempts = new ConcurrentHashMap<>();
    private final Clock clock;
    final AtomicInteger calls = new AtomicInteger();
    volatile RuntimeException failure;
    volatile Duration delay = Duration.ZERO;

    FakeClusterRateLimits(Clock clock) {
        this.clock = clock;
    }

    void reset() {
        attempts.clear();
        calls.set(0);
        failure = null;
        delay = Duration.ZERO;
    }

    @Override
    public synchronized Decision tryAcquire(String key, int limit, Duration window) {
        calls.incrementAndGet();
        Hanging.sleep(delay);
        if (failure != null) {
            throw failure;
        }
        var now = clock.millis();
        var list = attempts.computeIfAbsent(key, k -> new ArrayList<>());
        list.removeIf(t -> now - t >= window.toMillis());
        if (list.size() >= limit) {
            return new Decision(false, Duration.ofMillis(list.getFirst() + window.toMillis() - now), 0);
        }
        list.add(now);
        return new Decision(true, Duration.ZERO, limit - list.size());
    }

    @Override
    public int purgeOlderThan(Duration window, int chunkSize) {
        return 0;
    }

    @Override
    public int purgeIdleKeys(Duration idleFor, int chunkSize) {
        return 0;
    }
}
