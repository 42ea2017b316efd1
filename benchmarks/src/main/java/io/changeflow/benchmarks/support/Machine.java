package io.changeflow.benchmarks.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/** What a result was measured on: printed at the start and end of every benchmark run. */
public final class Machine {

    private Machine() {
    }

    public static String describe() {
        return "machine: nproc=" + Runtime.getRuntime().availableProcessors()
                + ", RAM=" + memTotal(lines("/proc/meminfo")).orElse("?")
                + ", CPU=" + cpuModel(lines("/proc/cpuinfo")).orElse("?")
                + ", JDK=" + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")
                + ", date=" + OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
    }

    /** The 1, 5 and 15 minute load averages, as the kernel reports them. */
    public static String load() {
        return "load average: " + lines("/proc/loadavg").stream().findFirst()
                .map(line -> String.join(" ", List.of(line.split("\\s+")).subList(0, 3))).orElse("?");
    }

    static Optional<String> cpuModel(List<String> cpuinfo) {
        return cpuinfo.stream().filter(l -> l.startsWith("model name")).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).strip());
    }

    static Optional<String> memTotal(List<String> meminfo) {
        return meminfo.stream().filter(l -> l.startsWith("MemTotal:")).findFirst().map(l -> {
            var kb = Long.parseLong(l.replaceAll("[^0-9]", ""));
            return String.format(java.util.Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        });
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
