package io.changeflow.application.fake;

import io.changeflow.application.port.out.ClusterRateLimits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/** {@link ClusterRateLimits} as a sliding-window log per key on the given clock. */
public final class FakeClusterRateLimits implements ClusterRateLimits {

    private final Clock clock;
    private final Map<String, Deque<Instant>> attempts = new HashMap<>();

    public FakeClusterRateLimits(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Decision tryAcquire(String key, int limit, Duration window) {
        var now = clock.instant();
        var log = attempts.computeIfAbsent(key, k -> new ArrayDeque<>());
        while (!log.isEmpty() && !log.peekFirst().isAfter(now.minus(window))) {
            log.pollFirst();
        }
        if (log.size() < limit) {
            log.addLast(now);
            return new Decision(true, Duration.ZERO, limit - log.size());
        }
        return new Decision(false, Duration.between(now, log.peekFirst().plus(window)), 0);
    }

    @Override
    public synchronized int purgeOlderThan(Duration window, int chunkSize) {
        var cutoff = clock.instant().minus(window);
        var purged = 0;
        for (var log : attempts.values()) {
            while (purged < chunkSize && !log.isEmpty() && log.peekFirst().isBefore(cutoff)) {
                log.pollFirst();
                purged++;
            }
        }
        return purged;
    }

    @Override
    public synchronized int purgeIdleKeys(Duration idleFor, int chunkSize) {
        var cutoff = clock.instant().minus(idleFor);
        var idle = attempts.entrySet().stream()
                .filter(e -> e.getValue().isEmpty() || !e.getValue().peekLast().isAfter(cutoff))
                .limit(chunkSize).map(java.util.Map.Entry::getKey).toList();
        idle.forEach(attempts::remove);
        return idle.size();
    }
}
