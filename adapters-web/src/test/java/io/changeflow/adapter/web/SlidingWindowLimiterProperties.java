package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class SlidingWindowLimiterProperties {

    @Property(tries = 300)
    void neverAllowsMoreThanTheLimitInAnyWindowAndRefusesOnlyAFullOne(
            @ForAll @Size(min = 1, max = 200) List<@IntRange(min = 0, max = 20_000) Integer> gapsMillis,
            @ForAll @IntRange(min = 1, max = 8) int limit,
            @ForAll @IntRange(min = 1, max = 30) int windowSeconds) {
        var clock = new MutableClock(Instant.EPOCH);
        var limiter = new SlidingWindowLimiter(clock, 10);
        var window = Duration.ofSeconds(windowSeconds).toMillis();
        var allowed = new ArrayList<Long>();
        for (var gap : gapsMillis) {
            clock.advance(Duration.ofMillis(gap));
            var now = clock.millis();
            var inWindow = allowed.stream().filter(t -> now - t < window).count();
            var decision = limiter.tryAcquire("k", limit, Duration.ofSeconds(windowSeconds));
            assertThat(decision.allowed()).as("refused exactly when the window already holds the limit").isEqualTo(inWindow < limit);
            if (decision.allowed()) {
                allowed.add(now);
            }
        }
        for (var t : allowed) {
            assertThat(allowed.stream().filter(s -> s <= t && t - s < window).count()).isLessThanOrEqualTo(limit);
        }
    }

    @Property(tries = 200)
    void trackedKeysNeverExceedTheCap(
            @ForAll @Size(min = 1, max = 300) List<@IntRange(min = 0, max = 40) Integer> keys,
            @ForAll @Size(min = 1, max = 300) List<@IntRange(min = 0, max = 30_000) Integer> gapsMillis,
            @ForAll @IntRange(min = 1, max = 12) int cap) {
        var clock = new MutableClock(Instant.EPOCH);
        var limiter = new SlidingWindowLimiter(clock, cap);
        for (var i = 0; i < keys.size(); i++) {
            clock.advance(Duration.ofMillis(gapsMillis.get(i % gapsMillis.size())));
            limiter.tryAcquire("key" + keys.get(i), 3, Duration.ofSeconds(10));
            assertThat(limiter.trackedKeys()).isBetween(0, cap);
        }
    }
}
