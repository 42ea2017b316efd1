package io.changeflow.benchmarks.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Who used the CPUs during a measurement, from {@code /proc}: the processes under test ("own": the
 * given roots, their descendants such as an embedded MariaDB, and this JVM) versus everything else
 * ("foreign": other engineers' builds and tests on the shared cores, plus kernel time not charged to
 * a process, e.g. loopback networking). A measurement whose foreign share is high was disturbed and
 * is repeated. Linux only; elsewhere every reading is zero.
 */
public final class CpuWatch {

    /** Foreign use above this many cores marks a measurement as disturbed. */
    public static final double DISTURBED_CORES = 0.3;

    /**
     * How long a measurement waits for quiet cores before it starts anyway ({@code -Dbench.quietWait=<seconds>},
     * default 60; the scripts pass {@code QUIET_WAIT}). On a shared machine a long wait only delays the run: the
     * foreign use is printed beside every figure either way.
     */
    public static int quietWaitSeconds() {
        return Integer.getInteger("bench.quietWait", 60);
    }

    /** How often a disturbed measurement is taken at most ({@code -Dbench.attempts}, default 3; 1 = never again). */
    public static int attempts() {
        return Math.max(1, Integer.getInteger("bench.attempts", 3));
    }

    private final Set<Long> roots;
    private final long startedNanos;
    private final long totalBusy;
    private final long ownBusy;

    private CpuWatch(Set<Long> roots) {
        this.roots = roots;
        this.startedNanos = System.nanoTime();
        this.totalBusy = totalBusyTicks();
        this.ownBusy = ownTicks(roots);
    }

    /** Starts watching; {@code roots} are the pids of the processes under test besides this JVM (may be empty). */
    public static CpuWatch start(Set<Long> roots) {
        var all = new HashSet<>(roots);
        all.add(ProcessHandle.current().pid());
        return new CpuWatch(Set.copyOf(all));
    }

    /** CPU use since {@link #start}, in cores (1.0 = one core busy all along). */
    public Usage stop() {
        var seconds = (System.nanoTime() - startedNanos) / 1e9;
        var total = totalBusyTicks() - totalBusy;
        var own = ownTicks(roots) - ownBusy;
        var hz = 100.0; // USER_HZ: /proc reports clock ticks of 1/100 s on Linux
        return new Usage(own / hz / seconds, Math.max(0, total - own) / hz / seconds);
    }

    /** Waits (up to {@code maxSeconds}) until foreign use over a 2 s sample is below the threshold. */
    public static Usage awaitQuiet(Set<Long> roots, int maxSeconds) throws InterruptedException {
        Usage last = null;
        var deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            var watch = start(roots);
            Thread.sleep(2000);
            last = watch.stop();
            if (!last.disturbed()) {
                return last;
            }
        }
        return last;
    }

    /** @param own cores used by the processes under test; @param foreign cores used by everything else */
    public record Usage(double own, double foreign) {

        public boolean disturbed() {
            return foreign > DISTURBED_CORES;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "cpu own %.2f, foreign %.2f cores%s", own, foreign, disturbed() ? " (DISTURBED)" : "");
        }
    }

    static long totalBusyTicks() {
        try {
            var line = Files.readAllLines(Path.of("/proc/stat")).getFirst();
            return parseBusy(line);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** user + nice + system + irq + softirq + steal of the aggregate "cpu" line. */
    static long parseBusy(String cpuLine) {
        var f = cpuLine.trim().split("\\s+");
        long busy = 0;
        for (var i : List.of(1, 2, 3, 6, 7, 8)) {
            if (i < f.length) {
                busy += Long.parseLong(f[i]);
            }
        }
        return busy;
    }

    private static long ownTicks(Set<Long> roots) {
        var pids = new HashSet<Long>();
        for (var root : roots) {
            pids.add(root);
            ProcessHandle.of(root).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
        }
        long ticks = 0;
        for (var pid : pids) {
            ticks += processTicks(pid);
        }
        return ticks;
    }

    /** utime + stime of one process (all its threads). */
    static long processTicks(long pid) {
        try {
            return parseProcessTicks(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    static long parseProcessTicks(String stat) {
        // the command name is in parentheses and may contain spaces: count fields after the last ')'
        var rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // rest[0] is field 3 (state); utime is field 14, stime field 15
        return Long.parseLong(rest[11]) + Long.parseLong(rest[12]);
    }

    /** Pids as given on a command line: "123,456". */
    public static Set<Long> pids(String csv) {
        if (csv == null || csv.isBlank()) {
            return Set.of();
        }
        return Set.copyOf(Stream.of(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(Long::valueOf).toList());
    }
}
