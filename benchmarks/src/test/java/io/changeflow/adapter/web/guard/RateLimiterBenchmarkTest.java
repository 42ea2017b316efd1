package io.changeflow.adapter.web.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import org.junit.jupiter.api.Test;

/** The harness only: key rotation and regimes set up (no timing is measured or asserted). */
class RateLimiterBenchmarkTest {

    @Test
    void twoCallersShareNoKeyAndTogetherVisitEveryKey() {
        var names = new String[] {"a", "b", "c", "d", "e"};
        var first = caller(0, 2);
        var second = caller(1, 2);
        var seenFirst = new HashSet<String>();
        var seenSecond = new HashSet<String>();
        for (var i = 0; i < 20; i++) {
            seenFirst.add(first.next(names));
            seenSecond.add(second.next(names));
        }
        var all = new HashSet<>(seenFirst);
        all.addAll(seenSecond);
        assertThat(all).containsExactlyInAnyOrder(names);
        assertThat(caller(1, 2).next(new String[] {"hot"})).isEqualTo("hot");
    }

    @Test
    void steadyRegimeOffersEachKeyItsLimit() {
        var benchmark = setUp(100, "steady");
        var caller = caller(0, 1);
        for (var i = 0; i < 100 * RateLimiterBenchmark.LIMIT * 3; i++) {
            benchmark.slidingWindow_1thread(caller);
            benchmark.bucket4j_1thread(caller);
        }
        assertThat(caller.refused).isZero();
        assertThat(caller.allowed).isEqualTo(2L * 100 * RateLimiterBenchmark.LIMIT * 3);
    }

    @Test
    void floodRegimeRefusesAfterTheLimit() {
        var benchmark = setUp(1, "flood");
        var caller = caller(0, 1);
        for (var i = 0; i < 100; i++) {
            benchmark.slidingWindow_1thread(caller);
        }
        assertThat(caller.allowed).isEqualTo(RateLimiterBenchmark.LIMIT);
        assertThat(caller.refused).isEqualTo(100 - RateLimiterBenchmark.LIMIT);
    }

    private static RateLimiterBenchmark setUp(int keys, String regime) {
        var benchmark = new RateLimiterBenchmark();
        benchmark.keys = keys;
        benchmark.regime = regime;
        benchmark.setUp();
        return benchmark;
    }

    private static RateLimiterBenchmark.Caller caller(int index, int count) {
        var caller = new RateLimiterBenchmark.Caller();
        caller.placeAt(index, count);
        return caller;
    }
}
