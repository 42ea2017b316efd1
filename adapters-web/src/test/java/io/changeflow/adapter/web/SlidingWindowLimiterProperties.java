package io.changeflow.adapter.web;

import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlidingWindowLimiterProperties {

    record Attempts(List<Integer> gapsMillis, int limit, int windowSeconds) {}

    record Flood(List<Integer> keys, List<Integer> gapsMillis, int cap) {}

    @Test
    void neverAllowsMoreThanTheLimitInAnyWindowAndRefusesOnlyAFullOne() {
        var gaps = lists(ints(0, 20_000), 1, 200);
        Generator<Attempts> attempts = s -> new Attempts(gaps.generate(s), ints(1, 8).generate(s), ints(1, 30).generate(s));
        Property.forAll(attempts).tries(300).check(in -> {
            var clock = new MutableClock(Instant.EPOCH);
            var limiter = new SlidingWindowLimiter(clock, 10);
            var window = Duration.ofSeconds(in.windowSeconds()).toMillis();
            var allowed = new ArrayList<Long>();
            for (var gap : in.gapsMillis()) {
                clock.advance(Duration.ofMillis(gap));
                var now = clock.millis();
                var inWindow = allowed.stream().filter(t -> now - t < window).count();
                var decision = limiter.tryAcquire("k", in.limit(), Duration.ofSeconds(in.windowSeconds()));
                assertThat(decision.allowed()).as("refused exactly when the window already holds the limit")
                        .isEqualTo(inWindow < in.limit());
                if (decision.allowed()) {
                    allowed.add(now);
                }
            }
            for (var t : allowed) {
                assertThat(allowed.stream().filter(s -> s <= t && t - s < window).count()).isLessThanOrEqualTo(in.limit());
            }
        });
    }

    @Test
    void trackedKeysNeverExceedTheCap() {
        var keys = lists(ints(0, 40), 1, 300);
        var gaps = lists(ints(0, 30_000), 1, 300);
        Generator<Flood> floods = s -> new Flood(keys.generate(s), gaps.generate(s), ints(1, 12).generate(s));
        Property.forAll(floods).tries(200).check(in -> {
            var clock = new MutableClock(Instant.EPOCH);
            var limiter = new SlidingWindowLimiter(clock, in.cap());
            for (var i = 0; i < in.keys().size(); i++) {
                clock.advance(Duration.ofMillis(in.gapsMillis().get(i % in.gapsMillis().size())));
                limiter.tryAcquire("key" + in.keys().get(i), 3, Duration.ofSeconds(10));
                assertThat(limiter.trackedKeys()).isBetween(0, in.cap());
            }
        });
    }
}
