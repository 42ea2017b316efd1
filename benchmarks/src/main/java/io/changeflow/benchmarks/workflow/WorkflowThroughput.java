package io.changeflow.benchmarks.workflow;

import io.changeflow.benchmarks.support.Args;
import io.changeflow.benchmarks.support.CpuWatch;
import io.changeflow.benchmarks.support.Machine;
import io.changeflow.benchmarks.support.Mains;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.InstanceSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * End-to-end workflow throughput through the sandbox simulators with zero injected latency: the unchanged
 * product jar ({@code bootstrap/target/changeflow.jar}) started by the system-tests harness
 * ({@link ChangeflowCluster}: one database, one simulator host, instances as child processes), first one
 * instance, then a second one on the same database and simulators.
 *
 * <p>Per instance count (an instance added for it first gets {@code --warm-up} requests one at a time): a burst of
 * {@code --requests} submissions (each for a plain target of its own, so no
 * two merge requests in flight edit the same grant file; unique subjects), spread round-robin over the
 * instances, then waits until every request is VALIDATED. Times come from the database clock: submission is
 * {@code operation.created_at}, completion the {@code operation_history} row that made the binding VALIDATED.
 * Completed per minute = requests / (last completion - first submission); the steady rate is the one between
 * the 10th and the 90th percentile completion (ramp-up and drain left out).
 *
 * <p>Durable-task overhead per step: before the bursts, {@code --sequential} requests run one at a time on one
 * instance (nothing queues). Each state write of a request is an {@code operation_history} row; the gap between
 * two consecutive rows is the time from one write to the next, i.e. the durable hand-over (the step's outcome
 * written to {@code scheduled_tasks}, the next step picked and started) plus the next step's own work (local
 * HTTP calls to the simulators, reads and the guarded write). Gaps that include a designed wait (a poll
 * interval, a callback) are listed separately. The hand-over alone, with zero work, is measured by
 * adapters-scheduler's {@code StepOverheadTest}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar -Dchangeflow.jar=bootstrap/target/changeflow.jar -Dtestdb.docker=false \
 *     io.changeflow.benchmarks.workflow.WorkflowThroughput --requests=100 --instances=1,2 --sequential=10
 * </pre>
 */
public final class WorkflowThroughput {

    private static final Set<String> AT_REST = Set.of("VALIDATED", "REJECTED", "CLOSED", "APPROVAL_FAILED",
            "CREATE_FAILED", "HANDLE_FAILED");

    private WorkflowThroughput() {
    }

    public static void main(String[] argv) {
        Mains.runAndExit(a -> run(new Args(a)), argv);
    }

    private static void run(Args args) throws Exception {
        var requests = args.integer("requests", 100);
        var instanceCounts = args.integers("instances", "1,2");
        var sequential = args.integer("sequential", 10);
        // a freshly started instance gets a few requests one at a time before it takes part in a burst (the one that
        // runs the sequential requests is warm from those)
        var warmUp = args.integer("warm-up", 3);
        var submitters = args.integer("submitters", 4);
        var timeout = args.seconds("timeout", 600);
        var appJvm = args.get("app-jvm", "-Xmx512m -XX:+UseSerialGC");
        System.out.println(Machine.describe());
        System.out.println(Machine.load());
        var maxInstances = instanceCounts.stream().mapToInt(Integer::intValue).max().orElse(1);

        try (var cluster = ChangeflowCluster.create()
                .withPlainTargets(requests)
                // zero injected latency: the simulators answer and decide at once
                .withSimulatorProperty("sandbox.approval.auto-delay", "0s")
                .withSimulatorProperty("sandbox.deploy.delay", "0s")
                .withSimulatorProperty("sandbox.gitlab.checking-duration", "0s")
                .withSimulatorProperty("sandbox.gitlab.pipeline-duration", "0s")
                .withSimulatorProperty("sandbox.gitlab.rebase-duration", "0s")
                // the simulator host runs in this JVM, whose class path has JDBC (for the other benchmarks): no DataSource there
                .withSimulatorProperty("spring.autoconfigure.exclude", String.join(",",
                        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                        "org.springframework.boot.jdbc.autoconfigure.XADataSourceAutoConfiguration",
                        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
                        "org.springframework.boot.jooq.autoconfigure.JooqAutoConfiguration"))) {
            cluster.open("workflow-throughput");
            System.out.println("instances: " + appJvm + ", the system-tests cluster settings (steps polled every "
                    + cluster.settings().property("changeflow.scheduler.polling-interval") + ", pipelines watched every "
                    + cluster.settings().property("changeflow.workflow.pipeline.short-interval") + "), rate limit off");
            var names = new ArrayList<String>();
            var started = 0;
            var phase = 0;
            for (var count : instanceCounts) {
                if (count > maxInstances || count < 1) {
                    throw new IllegalArgumentException("instances from 1: " + count);
                }
                var toStart = new ArrayList<String>();
                while (started < count) {
                    toStart.add("app-" + (char) ('a' + started));
                    started++;
                }
                startInstances(cluster, toStart, appJvm);
                names.addAll(toStart);
                var live = names.stream().map(cluster::instance).toList();
                if (phase == 0 && sequential > 0) {
                    perStepOverhead(cluster, live.getFirst(), sequential, timeout);
                }
                for (var name : toStart) {
                    if (phase > 0 || sequential == 0) {
                        warmUp(cluster, cluster.instance(name), warmUp, timeout);
                    }
                }
                burst(cluster, live, requests, submitters, timeout, "p" + phase);
                phase++;
            }
        }
        System.out.println(Machine.load());
    }

    private static void startInstances(ChangeflowCluster cluster, List<String> names, String appJvm) {
        var starts = names.stream().map(name -> CompletableFuture.runAsync(() -> cluster.start(name, s -> {
            s.clearJvmOptions();
            for (var option : appJvm.split("\\s+")) {
                if (!option.isBlank()) {
                    s.jvm(option);
                }
            }
        }))).toList();
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        for (var name : names) {
            var instance = cluster.instance(name);
            System.out.printf(Locale.ROOT, "started %s (pid %d) in %.1f s%n", name, instance.pid(),
                    instance.lastStartup().toMillis() / 1000.0);
        }
    }

    // ------------------------------------------------------------------ throughput

    private static void burst(ChangeflowCluster cluster, List<AppInstance> instances, int requests, int submitters,
                              Duration timeout, String tag) throws Exception {
        var own = instances.stream().map(AppInstance::pid).collect(Collectors.toSet());
        CpuWatch.awaitQuiet(own, CpuWatch.quietWaitSeconds());
        var watch = CpuWatch.start(own);
        var clients = instances.stream().map(i -> i.client("alice")).toList();
        var ids = Collections.synchronizedList(new ArrayList<String>());
        var refused = Collections.synchronizedList(new ArrayList<String>());
        var t0 = System.nanoTime();
        try (var pool = Executors.newFixedThreadPool(submitters)) {
            for (var i = 0; i < requests; i++) {
                var n = i;
                pool.submit(() -> {
                    var client = clients.get(n % clients.size());
                    try {
                        var response = client.submit(InstanceSettings.plainTargetKey(n + 1),
                                String.format(Locale.ROOT, "svc-%s-%04d", tag, n), "workflow throughput");
                        if (response.status() == 202) {
                            ids.add(response.data().path("operationId").asString());
                        } else {
                            refused.add(client.base() + ": " + response.status() + " " + response.body());
                        }
                    } catch (RuntimeException e) {
                        refused.add(client.base() + ": no answer (" + e.getMessage() + ")");
                    }
                });
            }
        }
        var submitSeconds = (System.nanoTime() - t0) / 1e9;
        if (!refused.isEmpty()) {
            System.out.println("  submissions refused or unanswered: " + refused.size() + ", first: " + refused.getFirst());
        }
        var statuses = awaitAtRest(cluster.dataSource(), ids, timeout);
        var usage = watch.stop();
        for (var instance : instances) {
            System.out.println("  " + instance.name() + " health: " + health(instance));
        }
        var wall = (System.nanoTime() - t0) / 1e9;

        var times = completionTimes(cluster.dataSource(), ids);
        var completed = times.stream().filter(t -> t[1] > 0).toList();
        var firstSubmit = times.stream().mapToLong(t -> t[0]).min().orElse(0);
        var finishes = completed.stream().mapToLong(t -> t[1]).sorted().toArray();
        var latencies = completed.stream().mapToLong(t -> t[1] - t[0]).sorted().toArray();
        System.out.printf(Locale.ROOT, "=== %d instance(s): %d requests submitted in %.1f s (%d submitters), %s%n",
                instances.size(), requests, submitSeconds, submitters, new TreeMap<>(statuses));
        if (finishes.length == 0) {
            System.out.println("  nothing completed within " + timeout.toSeconds() + " s");
            return;
        }
        var makespan = (finishes[finishes.length - 1] - firstSubmit) / 1000.0;
        var p10 = finishes[(int) Math.floor(0.1 * (finishes.length - 1))];
        var p90 = finishes[(int) Math.ceil(0.9 * (finishes.length - 1))];
        var middle = (int) Math.ceil(0.9 * (finishes.length - 1)) - (int) Math.floor(0.1 * (finishes.length - 1));
        var steady = p90 > p10 ? middle * 60_000.0 / (p90 - p10) : 0;
        System.out.printf(Locale.ROOT, "  completed (VALIDATED) %d of %d; first submission -> last VALIDATED %.1f s: %.1f completed per "
                        + "minute overall, %.1f per minute between the 10th and 90th percentile completion%n",
                finishes.length, requests, makespan, finishes.length * 60 / makespan, steady);
        System.out.printf(Locale.ROOT, "  submission -> VALIDATED per request: p50 %.2f s, p90 %.2f s, p99 %.2f s, max %.2f s%n",
                pct(latencies, 50) / 1000.0, pct(latencies, 90) / 1000.0, pct(latencies, 99) / 1000.0,
                latencies[latencies.length - 1] / 1000.0);
        System.out.printf(Locale.ROOT, "  wall %.1f s, %s, %s%n", wall, usage, Machine.load());
        System.out.printf(Locale.ROOT, "RESULT workflow instances=%d requests=%d completed=%d per_minute=%.1f steady_per_minute=%.1f "
                        + "p50_s=%.2f p99_s=%.2f foreign_cores=%.2f%n", instances.size(), requests, finishes.length,
                finishes.length * 60 / makespan, steady, pct(latencies, 50) / 1000.0, pct(latencies, 99) / 1000.0, usage.foreign());
    }

    /** Waits until every request's binding is at rest (or nothing moved for a minute, or the timeout). */
    private static Map<String, Long> awaitAtRest(DataSource db, List<String> ids, Duration timeout) throws InterruptedException {
        var deadline = System.nanoTime() + timeout.toNanos();
        var lastProgress = System.nanoTime();
        var lastAtRest = -1L;
        while (true) {
            var statuses = statuses(db, ids);
            var atRest = statuses.entrySet().stream().filter(e -> AT_REST.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
            if (atRest == ids.size()) {
                return statuses;
            }
            if (atRest != lastAtRest) {
                lastAtRest = atRest;
                lastProgress = System.nanoTime();
            }
            if (System.nanoTime() > deadline || System.nanoTime() - lastProgress > 60_000_000_000L) {
                System.out.println("  gave up waiting: " + statuses);
                return statuses;
            }
            Thread.sleep(250);
        }
    }

    private static Map<String, Long> statuses(DataSource db, List<String> ids) {
        var counts = new LinkedHashMap<String, Long>();
        for (var chunk : chunks(ids)) {
            for (var row : rows(db, "select status, count(*) n from binding where operation_id in (" + marks(chunk.size())
                    + ") group by status", chunk)) {
                counts.merge(String.valueOf(row.get(0)), ((Number) row.get(1)).longValue(), Long::sum);
            }
        }
        return counts;
    }

    /** {submitted, validated or 0} in epoch milliseconds of the database clock, per request. */
    private static List<long[]> completionTimes(DataSource db, List<String> ids) {
        var times = new ArrayList<long[]>();
        for (var chunk : chunks(ids)) {
            for (var row : rows(db, "select round(unix_timestamp(o.created_at) * 1000), "
                    + "(select round(unix_timestamp(min(h.created_at)) * 1000) from operation_history h "
                    + "  where h.operation_id = o.id and h.to_binding = 'VALIDATED') "
                    + "from operation o where o.id in (" + marks(chunk.size()) + ")", chunk)) {
                times.add(new long[] {((Number) row.get(0)).longValue(), row.get(1) == null ? 0 : ((Number) row.get(1)).longValue()});
            }
        }
        return times;
    }

    // ------------------------------------------------------------------ per-step overhead

    private static void perStepOverhead(ChangeflowCluster cluster, AppInstance instance, int count, Duration timeout)
            throws InterruptedException {
        var client = instance.client("alice");
        var ids = new ArrayList<String>();
        var own = Set.of(instance.pid());
        CpuWatch.awaitQuiet(own, CpuWatch.quietWaitSeconds());
        var watch = CpuWatch.start(own);
        for (var i = 0; i < count; i++) {
            var response = client.submit(InstanceSettings.plainTargetKey(i + 1), String.format(Locale.ROOT, "svc-seq-%04d", i),
                    "one at a time");
            if (response.status() != 202) {
                throw new IllegalStateException("submission refused: " + response);
            }
            var id = response.data().path("operationId").asString();
            awaitAtRest(cluster.dataSource(), List.of(id), timeout);
            ids.add(id);
        }
        var usage = watch.stop();
        // the first two warm the instance up (JIT, pools): left out
        var measured = ids.subList(Math.min(2, ids.size() - 1), ids.size());
        var gaps = new TreeMap<String, List<Long>>();
        var totals = new ArrayList<Long>();
        var writes = new ArrayList<Long>();
        for (var id : measured) {
            var history = rows(cluster.dataSource(), "select event, to_binding, round(unix_timestamp(created_at) * 1000) "
                    + "from operation_history where operation_id = ? order by id", List.of(id));
            for (var k = 1; k < history.size(); k++) {
                var transition = history.get(k - 1).get(0) + " -> " + history.get(k).get(0);
                var gap = ((Number) history.get(k).get(2)).longValue() - ((Number) history.get(k - 1).get(2)).longValue();
                gaps.computeIfAbsent(transition, t -> new ArrayList<>()).add(gap);
            }
            totals.add(((Number) history.getLast().get(2)).longValue() - ((Number) history.getFirst().get(2)).longValue());
            writes.add((long) history.size());
        }
        System.out.printf(Locale.ROOT, "=== one request at a time on one instance: %d requests (first 2 left out), %s%n", measured.size(), usage);
        System.out.printf(Locale.ROOT, "  submission -> VALIDATED: p50 %d ms over %d state writes (operation_history rows)%n",
                pct(totals.stream().mapToLong(Long::longValue).sorted().toArray(), 50),
                pct(writes.stream().mapToLong(Long::longValue).sorted().toArray(), 50));
        System.out.println("  gap from one state write to the next (median / max ms, n):");
        gaps.forEach((transition, values) -> {
            var sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf(Locale.ROOT, "    %-50s %6d / %6d  (%d)%n", transition, pct(sorted, 50), sorted[sorted.length - 1],
                    sorted.length);
        });
    }

    // ------------------------------------------------------------------ plumbing

    private static String health(AppInstance instance) {
        try {
            var response = instance.client(null).withTimeout(Duration.ofSeconds(5)).get("/actuator/health");
            return response.status() + " " + response.json().path("status").asString("?");
        } catch (RuntimeException e) {
            return "no answer within 5 s (" + e.getClass().getSimpleName() + ")";
        }
    }

    /** A few requests one at a time on a freshly started instance: classes loaded, pools filled, JIT started. */
    private static void warmUp(ChangeflowCluster cluster, AppInstance instance, int count, Duration timeout)
            throws InterruptedException {
        var client = instance.client("alice");
        for (var i = 0; i < count; i++) {
            var response = client.submit(InstanceSettings.plainTargetKey(i + 1),
                    String.format(Locale.ROOT, "svc-warm-%s-%02d", instance.name(), i), "warm-up");
            if (response.status() != 202) {
                throw new IllegalStateException("warm-up submission refused: " + response);
            }
            awaitAtRest(cluster.dataSource(), List.of(response.data().path("operationId").asString()), timeout);
        }
    }

    private static long pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        var rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static List<List<String>> chunks(List<String> ids) {
        var chunks = new ArrayList<List<String>>();
        var copy = List.copyOf(ids);
        for (var i = 0; i < copy.size(); i += 500) {
            chunks.add(copy.subList(i, Math.min(copy.size(), i + 500)));
        }
        return chunks;
    }

    private static String marks(int n) {
        return String.join(",", Collections.nCopies(n, "?"));
    }

    private static List<List<Object>> rows(DataSource db, String sql, List<String> parameters) {
        try (var connection = db.getConnection(); var statement = connection.prepareStatement(sql)) {
            for (var i = 0; i < parameters.size(); i++) {
                statement.setString(i + 1, parameters.get(i));
            }
            try (var result = statement.executeQuery()) {
                var rows = new ArrayList<List<Object>>();
                var columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    var row = new ArrayList<>();
                    for (var c = 1; c <= columns; c++) {
                        row.add(result.getObject(c));
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("query failed: " + sql, e);
        }
    }
}
