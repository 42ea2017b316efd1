package io.changeflow.benchmarks.support;

import java.util.Arrays;
import java.util.Locale;

/**
 * Latency samples in nanoseconds and their summary (nearest-rank percentiles). Not thread-safe:
 * each worker fills its own and {@link #merge}s at the end.
 */
public final class Latencies {

    private long[] samples = new long[1024];
    private int size;

    public void add(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = nanos;
    }

    public int size() {
        return size;
    }

    public Latencies merge(Latencies other) {
        for (var i = 0; i < other.size; i++) {
            add(other.samples[i]);
        }
        return this;
    }

    public Summary summary() {
        var sorted = Arrays.copyOf(samples, size);
        Arrays.sort(sorted);
        return new Summary(size, percentile(sorted, 50), percentile(sorted, 99), size == 0 ? 0 : sorted[size - 1],
                size == 0 ? 0 : Arrays.stream(sorted).average().orElse(0));
    }

    /** Nearest rank: the smallest sample such that at least {@code p} percent are at or below it. 0 when empty. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        var rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** @param count samples; p50, p99, max in nanoseconds; mean in nanoseconds */
    public record Summary(int count, long p50, long p99, long max, double mean) {

        public String millis() {
            return String.format(Locale.ROOT, "n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms mean=%.2f ms", count, p50 / 1e6,
                    p99 / 1e6, max / 1e6, mean / 1e6);
        }
    }
}
