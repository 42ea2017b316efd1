package io.changeflow.benchmarks.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop load: {@code concurrency} virtual threads, each calling the operation again as soon
 * as the previous call returned, until the duration is over. Records every call's latency and its
 * outcome (a label such as an HTTP status, or the exception's class). Closed loop means a slow
 * server is offered less load: latencies are those of the offered load, without coordinated-omission
 * correction.
 */
public final class ClosedLoop {

    /** One call; returns the outcome label (e.g. "202"). {@code worker} is 0..concurrency-1. */
    @FunctionalInterface
    public interface Operation {
        String call(int worker, long sequence) throws Exception;
    }

    /**
     * @param outcomes calls by outcome label
     * @param seconds  the measured span
     */
    public record Result(String name, int concurrency, double seconds, Latencies.Summary latency, Map<String, Long> outcomes) {

        public long calls() {
            return outcomes.values().stream().mapToLong(Long::longValue).sum();
        }

        public double perSecond() {
            return calls() / seconds;
        }

        /** Calls per second whose outcome is {@code label}. */
        public double perSecond(String label) {
            return outcomes.getOrDefault(label, 0L) / seconds;
        }

        public String line() {
            return String.format(Locale.ROOT, "%-34s c=%-3d %8.1f ops/s  %s  outcomes=%s", name, concurrency, perSecond(),
                    latency.millis(), outcomes);
        }
    }

    private ClosedLoop() {
    }

    public static Result run(String name, int concurrency, Duration duration, Operation operation) {
        var sequence = new AtomicLong();
        var outcomes = new ConcurrentHashMap<String, AtomicLong>();
        var perWorker = new ArrayList<Latencies>();
        for (var i = 0; i < concurrency; i++) {
            perWorker.add(new Latencies());
        }
        var started = System.nanoTime();
        var deadline = started + duration.toNanos();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var w = 0; w < concurrency; w++) {
                var worker = w;
                var latencies = perWorker.get(w);
                executor.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        var t0 = System.nanoTime();
                        String outcome;
                        try {
                            outcome = operation.call(worker, sequence.getAndIncrement());
                        } catch (Exception e) {
                            outcome = e.getClass().getSimpleName();
                        }
                        latencies.add(System.nanoTime() - t0);
                        outcomes.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
                    }
                    return null;
                });
            }
        }
        var seconds = (System.nanoTime() - started) / 1e9;
        var all = new Latencies();
        perWorker.forEach(all::merge);
        var counts = new TreeMap<String, Long>();
        outcomes.forEach((k, v) -> counts.put(k, v.get()));
        return new Result(name, concurrency, seconds, all.summary(), counts);
    }
}
