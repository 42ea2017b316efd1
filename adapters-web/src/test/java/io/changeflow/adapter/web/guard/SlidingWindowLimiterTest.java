package io.changeflow.adapter.web.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SlidingWindowLimiterTest {

    private static final Duration WINDOW = Duration.ofSeconds(60);
    private static final int FLOOD = 100_000;

    private final SettableClock clock = new SettableClock(Instant.parse("2026-03-02T10:00:00Z"));

    @Test
    void allowsUpToTheLimitThenRefusesUntilTheOldestAttemptLeavesTheWindow() {
        var limiter = new SlidingWindowLimiter(clock, 100);
        assertThat(limiter.tryAcquire("k", 2, WINDOW).allowed()).isTrue();
        clock.advance(Duration.ofSeconds(10));
        var second = limiter.tryAcquire("k", 2, WINDOW);
        assertThat(second.allowed()).isTrue();
        assertThat(second.remaining()).isZero();
        var refused = limiter.tryAcquire("k", 2, WINDOW);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.resetAfter()).isEqualTo(Duration.ofSeconds(50));
        clock.advance(Duration.ofSeconds(50));
        assertThat(limiter.tryAcquire("k", 2, WINDOW).allowed()).isTrue();
    }

    @Test
    void aFloodOfDistinctForgedKeysStaysUnderTheCapSharesOneOverflowQuotaAndIsEvictedOnceTheWindowPassed() {
        var limiter = new SlidingWindowLimiter(clock, 50_000);
        var before = usedHeap();
        var untracked = 0;
        var untrackedAllowed = 0;
        for (var i = 0; i < FLOOD; i++) {
            var decision = limiter.tryAcquire("apply:ip:10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255), 10, WINDOW);
            if (!decision.tracked()) {
                untracked++;
                untrackedAllowed += decision.allowed() ? 1 : 0;
            } else {
                assertThat(decision.allowed()).isTrue();
            }
        }
        var atCap = usedHeap() - before;
        assertThat(limiter.trackedKeys()).isEqualTo(50_000);
        assertThat(untracked).isEqualTo(FLOOD - 50_000);
        assertThat(untrackedAllowed).as("keys without a slot are never let through unlimited").isEqualTo(10);

        clock.advance(WINDOW.plusSeconds(1));
        assertThat(limiter.sweep(WINDOW)).isZero();
        System.out.printf("limiter flood: %d distinct keys, %d tracked at the cap (~%d bytes retained, ~%d bytes/key), %d after the window%n",
                FLOOD, 50_000, atCap, atCap / 50_000, limiter.trackedKeys());
    }

    @Test
    void theNextRequestAfterAWindowSweepsIdleKeysWithoutAnExplicitCall() {
        var limiter = new SlidingWindowLimiter(clock, 1_000_000);
        for (var round = 0; round < 10; round++) {
            for (var i = 0; i < 20_000; i++) {
                limiter.tryAcquire("round" + round + ":" + i, 5, WINDOW);
            }
            assertThat(limiter.trackedKeys()).as("only the current window's keys are kept").isEqualTo(20_000);
            clock.advance(WINDOW.plusSeconds(1));
        }
        limiter.tryAcquire("late", 5, WINDOW);
        assertThat(limiter.trackedKeys()).isEqualTo(1);
    }

    @Test
    void keysAlreadyTrackedStayLimitedWhenTheMapIsFull() {
        var limiter = new SlidingWindowLimiter(clock, 3);
        for (var i = 0; i < 2; i++) {
            limiter.tryAcquire("alice", 2, WINDOW);
        }
        limiter.tryAcquire("x", 2, WINDOW);
        limiter.tryAcquire("y", 2, WINDOW);
        var newcomer = limiter.tryAcquire("z", 2, WINDOW);
        assertThat(newcomer.allowed()).isTrue();
        assertThat(newcomer.tracked()).isFalse();
        assertThat(limiter.tryAcquire("alice", 2, WINDOW).allowed()).isFalse();
        // newcomers without a slot share the overflow bucket's quota
        assertThat(limiter.tryAcquire("z2", 2, WINDOW).allowed()).isTrue();
        assertThat(limiter.tryAcquire("z3", 2, WINDOW).allowed()).isFalse();
    }

    @Test
    void aFloodOfForgedAddressesNeverEvictsAPersonAndEvictsTheLeastRecentlyUsedAddresses() {
        var limiter = new SlidingWindowLimiter(clock, 10, 100);
        for (var i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("apply:alice", "apply", SlidingWindowLimiter.Kind.IDENTITY, 3, WINDOW).allowed()).isTrue();
        }
        for (var i = 0; i < 100; i++) {
            clock.advance(Duration.ofMillis(10));
            limiter.tryAcquire("apply:ip:10.0.0." + i, "apply", SlidingWindowLimiter.Kind.ADDRESS, 3, WINDOW);
        }
        assertThat(limiter.trackedKeys(SlidingWindowLimiter.Kind.ADDRESS)).isEqualTo(100);
        clock.advance(Duration.ofSeconds(2));
        var newcomer = limiter.tryAcquire("apply:ip:10.0.1.1", "apply", SlidingWindowLimiter.Kind.ADDRESS, 3, WINDOW);
        assertThat(newcomer.tracked()).as("the least recently used tenth made room").isTrue();
        assertThat(limiter.trackedKeys(SlidingWindowLimiter.Kind.ADDRESS)).isEqualTo(91);
        // the oldest addresses were evicted, the newest kept (its second attempt is counted against its first)
        assertThat(limiter.tryAcquire("apply:ip:10.0.0.99", "apply", SlidingWindowLimiter.Kind.ADDRESS, 3, WINDOW).remaining())
                .isEqualTo(1);
        for (var i = 0; i < 1_000; i++) {
            limiter.tryAcquire("apply:ip:10.1." + (i >> 8) + "." + (i & 255), "apply", SlidingWindowLimiter.Kind.ADDRESS, 3, WINDOW);
        }
        assertThat(limiter.trackedKeys(SlidingWindowLimiter.Kind.IDENTITY)).isEqualTo(1);
        assertThat(limiter.tryAcquire("apply:alice", "apply", SlidingWindowLimiter.Kind.IDENTITY, 3, WINDOW).allowed())
                .as("the person's quota holds through the flood").isFalse();
    }

    @Test
    void aFullMapMakesRoomAsSoonAsItsKeysAreIdle() {
        var limiter = new SlidingWindowLimiter(clock, 2);
        limiter.tryAcquire("a", 1, WINDOW);
        limiter.tryAcquire("b", 1, WINDOW);
        clock.advance(WINDOW.plusSeconds(1));
        var decision = limiter.tryAcquire("c", 1, WINDOW);
        assertThat(decision.tracked()).isTrue();
        assertThat(limiter.trackedKeys()).isEqualTo(1);
    }

    @Test
    void concurrentAttemptsOnOneKeyNeverExceedTheLimit() throws Exception {
        var limiter = new SlidingWindowLimiter(clock, 100);
        var allowed = new AtomicInteger();
        try (var pool = Executors.newFixedThreadPool(8)) {
            var tasks = new ArrayList<Callable<Void>>();
            for (var t = 0; t < 8; t++) {
                tasks.add(() -> {
                    for (var i = 0; i < 1_000; i++) {
                        if (limiter.tryAcquire("shared", 100, WINDOW).allowed()) {
                            allowed.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            for (var future : pool.invokeAll(tasks)) {
                future.get();
            }
        }
        assertThat(allowed.get()).isEqualTo(100);
    }

    @Test
    void concurrentFloodsNeverOvershootTheCap() throws Exception {
        var limiter = new SlidingWindowLimiter(clock, 1_000);
        try (var pool = Executors.newFixedThreadPool(8)) {
            var tasks = new ArrayList<Callable<Void>>();
            for (var t = 0; t < 8; t++) {
                var thread = t;
                tasks.add(() -> {
                    for (var i = 0; i < 5_000; i++) {
                        limiter.tryAcquire(thread + ":" + i, 3, WINDOW);
                    }
                    return null;
                });
            }
            for (var future : pool.invokeAll(tasks)) {
                future.get();
            }
        }
        assertThat(limiter.trackedKeys()).isEqualTo(1_000);
    }

    private static long usedHeap() {
        var runtime = Runtime.getRuntime();
        for (var i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
