package io.changeflow.adapter.web.guard;

import io.changeflow.benchmarks.support.MutableClock;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the {@code steady} regime of {@link RateLimiterBenchmark} pays for moving its shared clock
 * (one contended atomic add per call), to read its figures against.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@State(Scope.Benchmark)
public class FakeClockBaseline {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Benchmark
    @Threads(1)
    public long advance_1thread() {
        clock.advanceNanos(6_000);
        return clock.millis();
    }

    @Benchmark
    @Threads(2)
    public long advance_2threads() {
        clock.advanceNanos(6_000);
        return clock.millis();
    }
}
