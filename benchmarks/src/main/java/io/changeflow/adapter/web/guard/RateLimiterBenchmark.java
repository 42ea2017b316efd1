package io.changeflow.adapter.web.guard;

import io.changeflow.benchmarks.support.MutableClock;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * {@link SlidingWindowLimiter#tryAcquire} against Bucket4j local buckets keyed the same way (a
 * {@link ConcurrentHashMap} of buckets, get then computeIfAbsent, one shared {@code Bandwidth}: 10
 * tokens refilled greedily at 10 per 60 s, the token-bucket counterpart of "10 per sliding 60 s"), in
 * one run.
 * Lives in the limiter's package because the limiter is package-private.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code keys}: 1 (one hot key) or 100,000 keys, visited round-robin; with 2 threads each thread
 *       takes every second key, so a key is never visited by both (the hot key by both, necessarily).</li>
 *   <li>{@code regime}: {@code flood}, the system clocks and the product default limit (10 per 60 s):
 *       after the first 10 calls per key every call is refused, the steady state of a caller flooding
 *       the endpoint; {@code steady}, a shared {@link MutableClock} moved forward on every call by
 *       window / (limit x keys), so each key is offered exactly its limit: almost every call is
 *       allowed and evicts one old entry (the clock's own cost is in {@link FakeClockBaseline}).</li>
 * </ul>
 * The limiter is built with a key cap of 1,000,000 (above the load; the product default is 50,000,
 * above which new keys are allowed untracked). Secondary results {@code allowed} / {@code refused}
 * show which path was measured.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class RateLimiterBenchmark {

    static final int LIMIT = 10;
    static final Duration WINDOW = Duration.ofSeconds(60);
    static final int MAX_KEYS = 1_000_000;
    /** Bucket4j's nearest equivalent: 10 tokens, refilled greedily at 10 per 60 s (shared by every bucket). */
    static final Bandwidth BANDWIDTH = Bandwidth.builder().capacity(LIMIT).refillGreedy(LIMIT, WINDOW).build();

    @Param({"1", "100000"})
    public int keys;

    @Param({"flood", "steady"})
    public String regime;

    private String[] names;
    private SlidingWindowLimiter limiter;
    private ConcurrentHashMap<String, Bucket> buckets;
    private Supplier<Bucket> newBucket;
    private MutableClock clock;
    private long step;

    @Setup(Level.Trial)
    public void setUp() {
        names = new String[keys];
        for (var i = 0; i < keys; i++) {
            names[i] = "apply:user-" + i;
        }
        buckets = new ConcurrentHashMap<>();
        switch (regime) {
            case "flood" -> {
                clock = null;
                limiter = new SlidingWindowLimiter(Clock.systemUTC(), MAX_KEYS);
                newBucket = () -> Bucket.builder().addLimit(BANDWIDTH).build();
            }
            case "steady" -> {
                clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
                step = WINDOW.toNanos() / ((long) LIMIT * keys);
                limiter = new SlidingWindowLimiter(clock, MAX_KEYS);
                var meter = clock.asTimeMeter();
                newBucket = () -> Bucket.builder().addLimit(BANDWIDTH).withCustomTimePrecision(meter).build();
            }
            default -> throw new IllegalArgumentException("regime is flood or steady: " + regime);
        }
    }

    /** Per-thread position in the key ring and the allowed / refused counts (secondary results). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Caller {

        public long allowed;
        public long refused;

        private int index;
        private int stride;

        @Setup(Level.Trial)
        public void place(ThreadParams thread) {
            placeAt(thread.getThreadIndex(), thread.getThreadCount());
        }

        void placeAt(int threadIndex, int threadCount) {
            index = threadIndex;
            stride = threadCount;
        }

        @Setup(Level.Iteration)
        public void resetCounts() {
            allowed = 0;
            refused = 0;
        }

        String next(String[] names) {
            var i = index;
            while (i >= names.length) {
                i -= names.length;
            }
            index = i + stride;
            return names[i];
        }

        boolean count(boolean ok) {
            if (ok) {
                allowed++;
            } else {
                refused++;
            }
            return ok;
        }
    }

    @Benchmark
    @Threads(1)
    public boolean slidingWindow_1thread(Caller caller) {
        return slidingWindow(caller);
    }

    @Benchmark
    @Threads(2)
    public boolean slidingWindow_2threads(Caller caller) {
        return slidingWindow(caller);
    }

    @Benchmark
    @Threads(1)
    public boolean bucket4j_1thread(Caller caller) {
        return bucket4j(caller);
    }

    @Benchmark
    @Threads(2)
    public boolean bucket4j_2threads(Caller caller) {
        return bucket4j(caller);
    }

    private boolean slidingWindow(Caller caller) {
        if (clock != null) {
            clock.advanceNanos(step);
        }
        return caller.count(limiter.tryAcquire(caller.next(names), LIMIT, WINDOW).allowed());
    }

    private boolean bucket4j(Caller caller) {
        if (clock != null) {
            clock.advanceNanos(step);
        }
        var key = caller.next(names);
        var bucket = buckets.get(key);
        if (bucket == null) {
            bucket = buckets.computeIfAbsent(key, k -> newBucket.get());
        }
        return caller.count(bucket.tryConsume(1));
    }
}
