package io.changeflow.systemtest.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Measured figures of a run: printed to the test output and appended to
 * {@code <system.output>/figures.txt} (default {@code target/system-tests/figures.txt}), so a CI log
 * or a long run leaves them in one place.
 */
public final class Figures {

    private Figures() {
    }

    /** Prints and records {@code text} under a heading. */
    public static synchronized void record(String heading, String text) {
        var block = "=== " + heading + " (" + Instant.now() + ")\n" + text.stripTrailing() + "\n";
        System.out.print(block);
        var file = Path.of(System.getProperty("system.output", "target/system-tests")).resolve("figures.txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, block, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("cannot append to " + file + ": " + e);
        }
    }

    /** {@code count  key} lines, largest count first. */
    public static String table(Map<String, ? extends Number> counts) {
        var width = counts.keySet().stream().mapToInt(String::length).max().orElse(10);
        var rows = new ArrayList<>(counts.entrySet());
        rows.sort((a, b) -> Double.compare(b.getValue().doubleValue(), a.getValue().doubleValue()));
        var text = new StringBuilder();
        for (var row : rows) {
            text.append(String.format("  %-" + width + "s  %s%n", row.getKey(), row.getValue()));
        }
        return text.toString();
    }

    /** Summary of durations: n, min, median, p95, p99, max in milliseconds. */
    public static String latencies(List<Duration> samples) {
        if (samples.isEmpty()) {
            return "n=0";
        }
        var millis = new ArrayList<Double>();
        samples.forEach(d -> millis.add(d.toNanos() / 1e6));
        Collections.sort(millis);
        return String.format("n=%d min=%.1f ms median=%.1f ms p95=%.1f ms p99=%.1f ms max=%.1f ms", millis.size(),
                millis.getFirst(), percentile(millis, 50), percentile(millis, 95), percentile(millis, 99), millis.getLast());
    }

    /** Nearest-rank percentile of sorted values. */
    public static double percentile(List<Double> sorted, double p) {
        var rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
