package io.changeflow.adapter.web.guard;

import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.SettableClock;
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
            var clock = new SettableClock(Instant.EPOCH);
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

    record AddressFlood(List<Integer> forged, List<Integer> gapsMillis, List<Boolean> personActs, int identityCap, int addressCap,
            int limit) {}

    /** Under any flood of forged addresses a person's quota holds, and keys without a slot share one quota. */
    @Test
    void underAnyFloodOfForgedAddressesAPersonsQuotaHolds() {
        var forged = lists(ints(0, 100_000), 1, 400);
        var gaps = lists(ints(0, 3_000), 1, 400);
        var acts = lists(ints(0, 4).map(i -> i == 0), 1, 400);
        Generator<AddressFlood> floods = s -> new AddressFlood(forged.generate(s), gaps.generate(s), acts.generate(s),
                ints(1, 4).generate(s), ints(1, 16).generate(s), ints(1, 5).generate(s));
        Property.forAll(floods).tries(300).check(in -> {
            var clock = new SettableClock(Instant.EPOCH);
            var limiter = new SlidingWindowLimiter(clock, in.identityCap(), in.addressCap());
            var window = Duration.ofSeconds(10);
            var personAllowed = new ArrayList<Long>();
            var overflowAllowed = new ArrayList<Long>();
            for (var i = 0; i < in.forged().size(); i++) {
                clock.advance(Duration.ofMillis(in.gapsMillis().get(i % in.gapsMillis().size())));
                var now = clock.millis();
                if (in.personActs().get(i % in.personActs().size())) {
                    var inWindow = personAllowed.stream().filter(t -> now - t < window.toMillis()).count();
                    var decision = limiter.tryAcquire("apply:alice", "apply", SlidingWindowLimiter.Kind.IDENTITY, in.limit(), window);
                    assertThat(decision.allowed()).as("the person is refused exactly when their window is full")
                            .isEqualTo(inWindow < in.limit());
                    if (decision.allowed()) {
                        personAllowed.add(now);
                    }
                }
                var address = in.forged().get(i);
                var decision = limiter.tryAcquire("apply:ip:10." + (address >> 16) + "." + (address >> 8 & 255) + "." + (address & 255),
                        "apply", SlidingWindowLimiter.Kind.ADDRESS, in.limit(), window);
                if (!decision.tracked() && decision.allowed()) {
                    overflowAllowed.add(now);
                }
                assertThat(limiter.trackedKeys(SlidingWindowLimiter.Kind.ADDRESS)).isBetween(0, in.addressCap());
                assertThat(overflowAllowed.stream().filter(t -> now - t < window.toMillis()).count())
                        .as("keys without a slot share one quota").isLessThanOrEqualTo(in.limit());
            }
        });
    }

    @Test
    void trackedKeysNeverExceedTheCap() {
        var keys = lists(ints(0, 40), 1, 300);
        var gaps = lists(ints(0, 30_000), 1, 300);
        Generator<Flood> floods = s -> new Flood(keys.generate(s), gaps.generate(s), ints(1, 12).generate(s));
        Property.forAll(floods).tries(200).check(in -> {
            var clock = new SettableClock(Instant.EPOCH);
            var limiter = new SlidingWindowLimiter(clock, in.cap());
            for (var i = 0; i < in.keys().size(); i++) {
                clock.advance(Duration.ofMillis(in.gapsMillis().get(i % in.gapsMillis().size())));
                limiter.tryAcquire("key" + in.keys().get(i), 3, Duration.ofSeconds(10));
                assertThat(limiter.trackedKeys()).isBetween(0, in.cap());
            }
        });
    }
}
