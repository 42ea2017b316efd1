package io.changeflow.adapter.web.guard;

import io.changeflow.benchmarks.support.Machine;
import io.changeflow.benchmarks.support.MutableClock;
import io.github.bucket4j.Bucket;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Retained heap of the rate limiter after {@code keys} distinct keys (one attempt each) and again
 * after the window has passed, beside Bucket4j local buckets in a {@link ConcurrentHashMap} (which
 * never evicts). Time is a {@link MutableClock}: "after the window" is one clock move, no sleeping.
 *
 * <p>Measured as the used-heap delta after forced full collections ({@link System#gc()} repeated
 * until the figure settles; run with {@code -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0} so "used" is
 * exact: by default the full collection leaves up to 5% dead space as filler objects, counted as used), relative to a
 * baseline taken just before each structure is built. Keys are built on the fly and referenced only
 * by the structure, so their strings ({@code apply:user-<n>}, as the interceptor builds
 * {@code bucket:subject}) are part of what each retains.
 *
 * <p>Each structure is measured in a JVM of its own (started by {@code all}, with the same JVM options).
 * Run: {@code java -XX:+UseSerialGC -XX:MarkSweepDeadRatio=0 -Xmx3g -cp benchmarks/target/benchmarks.jar io.changeflow.adapter.web.LimiterRetainedHeap all 1000000}
 */
public final class LimiterRetainedHeap {

    private static final int LIMIT = RateLimiterBenchmark.LIMIT;
    private static final Duration WINDOW = RateLimiterBenchmark.WINDOW;
    private static final int PRODUCT_DEFAULT_MAX_KEYS = 50_000;

    private LimiterRetainedHeap() {
    }

    public static void main(String[] args) throws InterruptedException {
        var which = args.length > 0 ? args[0] : "all";
        var keys = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        if (which.equals("all")) {
            System.out.println(Machine.describe());
            System.out.printf(Locale.ROOT, "%d distinct keys, one attempt each, limit %d per %s%n", keys, LIMIT, WINDOW);
            // one JVM per structure: nothing of one measurement (caches, stale frames) can leak into the next
            for (var each : new String[] {"window", "window-capped", "window-forged", "bucket4j"}) {
                fork(each, keys);
            }
            return;
        }
        System.out.println(Machine.load() + ", gc " + ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(b -> b.getName()).toList() + ", max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB");
        switch (which) {
            case "window" -> slidingWindow(keys, keys, "SlidingWindowLimiter, key cap " + keys);
            case "window-capped" -> slidingWindow(keys, PRODUCT_DEFAULT_MAX_KEYS,
                    "SlidingWindowLimiter, key cap " + PRODUCT_DEFAULT_MAX_KEYS + " (product default)");
            case "window-forged" -> forgedAddresses(keys);
            case "bucket4j" -> bucket4j(keys);
            default -> throw new IllegalArgumentException("window, window-capped, window-forged, bucket4j or all: " + which);
        }
    }

    private static void fork(String which, int keys) throws InterruptedException {
        var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var command = new ArrayList<String>(List.of(java));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LimiterRetainedHeap.class.getName(), which,
                String.valueOf(keys)));
        try {
            var exit = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException(which + " exited with " + exit);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String key(int i) {
        // no string concatenation bootstrap inside the measured span
        return new StringBuilder(20).append("apply:user-").append(i).toString();
    }

    private static void slidingWindow(int keys, int maxKeys, String label) throws InterruptedException {
        var baseline = usedAfterGc();
        var clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        var limiter = new SlidingWindowLimiter(clock, maxKeys);
        var untracked = 0;
        for (var i = 0; i < keys; i++) {
            if (!limiter.tryAcquire(key(i), LIMIT, WINDOW).tracked()) {
                untracked++;
            }
            if (i % 1000 == 999) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        fullThenSwept(limiter, clock, baseline, label, keys, untracked);
    }

    /**
     * The product's two tables at their defaults (people and addresses, 50,000 each) under {@code keys} forged
     * client addresses, while one person keeps trying: the retained heap, and whether the person's quota and the
     * overflow quota held (the bound: at most 64 MiB after 1,000,000 forged keys, quotas enforced).
     */
    private static void forgedAddresses(int keys) throws InterruptedException {
        var baseline = usedAfterGc();
        var clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        var limiter = new SlidingWindowLimiter(clock, PRODUCT_DEFAULT_MAX_KEYS, PRODUCT_DEFAULT_MAX_KEYS);
        var untracked = 0;
        var untrackedAllowed = 0;
        var personAllowed = 0;
        for (var i = 0; i < keys; i++) {
            var address = new StringBuilder(24).append("apply:ip:10.").append(i >> 16 & 255).append('.')
                    .append(i >> 8 & 255).append('.').append(i & 255).append('#').append(i >> 24).toString();
            var decision = limiter.tryAcquire(address, "apply", SlidingWindowLimiter.Kind.ADDRESS, LIMIT, WINDOW);
            if (!decision.tracked()) {
                untracked++;
                untrackedAllowed += decision.allowed() ? 1 : 0;
            }
            if (i % 1000 == 0) {
                personAllowed += limiter.tryAcquire("apply:alice", "apply", SlidingWindowLimiter.Kind.IDENTITY, LIMIT, WINDOW)
                        .allowed() ? 1 : 0;
            }
            if (i % 1000 == 999) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        var full = fullThenSwept(limiter, clock, baseline, "SlidingWindowLimiter, people and addresses 50,000 each, forged addresses",
                keys, 0);
        System.out.printf(Locale.ROOT, "  quotas: the person allowed %d of %d tries (limit %d per window); %d keys without a slot,"
                        + " allowed %d in total through the overflow bucket; retained at most 64 MiB: %s%n",
                personAllowed, (keys + 999) / 1000, LIMIT, untracked, untrackedAllowed, full <= 64L * 1024 * 1024);
    }

    private static void bucket4j(int keys) throws InterruptedException {
        var baseline = usedAfterGc();
        var clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        var meter = clock.asTimeMeter();
        var buckets = new ConcurrentHashMap<String, Bucket>();
        for (var i = 0; i < keys; i++) {
            buckets.computeIfAbsent(key(i), k -> Bucket.builder()
                    .addLimit(RateLimiterBenchmark.BANDWIDTH)
                    .withCustomTimePrecision(meter)
                    .build()).tryConsume(1);
            if (i % 1000 == 999) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        var full = usedAfterGc() - baseline;
        var sizeFull = buckets.size();
        clock.advance(WINDOW.plusSeconds(1).plusMillis(keys / 1000));
        buckets.computeIfAbsent("apply:late-caller", k -> Bucket.builder()
                .addLimit(RateLimiterBenchmark.BANDWIDTH)
                .withCustomTimePrecision(meter)
                .build()).tryConsume(1);
        var after = usedAfterGc() - baseline;
        var sizeAfter = buckets.size();
        Reference.reachabilityFence(buckets);
        report("Bucket4j local buckets in a ConcurrentHashMap (no eviction)", keys, full, sizeFull, 0, after, sizeAfter);
    }

    /**
     * Reports what {@code limiter} retains above {@code baseline} with its table as filled, then once the window has passed
     * and the next request found the sweep due and ran it inline (the product path); returns the first figure.
     */
    private static long fullThenSwept(SlidingWindowLimiter limiter, MutableClock clock, long baseline, String label, int keys,
                                       int untracked) throws InterruptedException {
        var full = usedAfterGc() - baseline;
        var trackedFull = limiter.trackedKeys();
        clock.advance(WINDOW.plusSeconds(1).plusMillis(keys / 1000));
        limiter.tryAcquire("apply:late-caller", LIMIT, WINDOW);
        var after = usedAfterGc() - baseline;
        var trackedAfter = limiter.trackedKeys();
        Reference.reachabilityFence(limiter);
        report(label, keys, full, trackedFull, untracked, after, trackedAfter);
        return full;
    }

    private static void report(String label, int keys, long full, int keysFull, int untracked, long after, int keysAfter) {
        System.out.printf(Locale.ROOT,
                "%s:%n  after %d keys: retained %.1f MiB, %d keys held (%.0f bytes per held key), %d allowed untracked%n"
                        + "  after the window: retained %.1f MiB, %d keys held%n",
                label, keys, full / 1048576.0, keysFull, keysFull == 0 ? 0.0 : (double) full / keysFull, untracked,
                after / 1048576.0, keysAfter);
    }

    /** Used heap after full collections, repeated until two readings agree within 64 KiB. */
    static long usedAfterGc() throws InterruptedException {
        var memory = ManagementFactory.getMemoryMXBean();
        var previous = Long.MAX_VALUE;
        for (var i = 0; i < 10; i++) {
            System.gc();
            Thread.sleep(50);
            var used = memory.getHeapMemoryUsage().getUsed();
            if (Math.abs(previous - used) < 64 * 1024) {
                return used;
            }
            previous = used;
        }
        return previous;
    }
}
