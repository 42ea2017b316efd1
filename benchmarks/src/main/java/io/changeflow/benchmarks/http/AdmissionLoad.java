package io.changeflow.benchmarks.http;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.changeflow.benchmarks.db.AdmissionCeiling;
import io.changeflow.benchmarks.support.Args;
import io.changeflow.benchmarks.support.ClosedLoop;
import io.changeflow.benchmarks.support.CpuWatch;
import io.changeflow.benchmarks.support.Machine;
import io.changeflow.embeddeddb.EmbeddedMariaDb;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.flywaydb.core.Flyway;

/**
 * Benchmark 3, admission: POST /api/requests against a running app (rate limit off, access open),
 * every request a fresh relationship (a new subject each time, the two batchable demo targets in
 * turn, so the background work per admission is one SUBMIT_APPROVAL step), with {@code c} concurrent
 * virtual threads; in the same run, on the same database server, the database's own ceiling for the
 * same rows ({@link AdmissionCeiling}) with the same concurrency on a pool of the app's size (10).
 * Phases alternate per round: admission, (the app's background steps drain), ceiling "rows",
 * ceiling "mirror", "mirror" again with {@code useLocalSessionState=true}, and "mirror lean", the statements
 * of an admission since issue 33 item 2 ({@link AdmissionCeiling#mirrorLean}). Each phase starts when
 * the shared cores are quiet and is measured again when other processes used them meanwhile
 * ({@link CpuWatch}; pass the app's pid as {@code --own-pids}).
 *
 * <p>Run by {@code benchmarks/scripts/admission.sh}, which starts the app and passes
 * {@code --url=http://127.0.0.1:<port> --db=jdbc:mysql://127.0.0.1:<db port>/}.
 *
 * <p>Several apps side by side (issue 33: notification mail on beside off, to tell the admission's cost from the
 * e-mail's): {@code --url} and {@code --db} take comma lists of the same length, {@code --labels} names each app
 * ({@code mail on,mail off}); each round measures every app's admission in turn, each after the previous app's
 * background work drained, then the ceilings once, on the first app's database server.
 */
public final class AdmissionLoad {

    private static final List<String> TARGETS = List.of("dashboards-viewer", "vpn-staging");
    private static final String APP_SCHEMA = "changeflow";

    private AdmissionLoad() {
    }

    public static void main(String[] argv) throws Exception {
        var args = new Args(argv);
        var urls = list(args.require("url"));
        var servers = list(args.require("db"));
        var labels = list(args.get("labels", ""));
        if (servers.size() != urls.size() || !labels.isEmpty() && labels.size() != urls.size()) {
            throw new IllegalArgumentException("--url, --db (and --labels) need one entry per app");
        }
        var server = servers.getFirst();
        var user = args.get("db-user", "root");
        var password = args.get("db-password", "");
        var concurrencies = args.integers("concurrency", "8,32");
        var duration = args.seconds("duration", 30);
        var warmup = args.seconds("warmup", 10);
        var rounds = args.integer("rounds", 2);
        var pool = args.integer("pool", 10);
        var own = CpuWatch.pids(args.get("own-pids", ""));

        System.out.println(Machine.describe());
        System.out.println(Machine.load());
        var tag = HexFormat.of().formatHex(new SecureRandom().generateSeed(3));
        var schema = "ceiling_" + tag;
        try (var c = DriverManager.getConnection(server + "?" + EmbeddedMariaDb.CONNECTION_PARAMETERS, user, password);
             var s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + schema + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        }
        var schemaUrl = server + schema + "?" + EmbeddedMariaDb.CONNECTION_PARAMETERS;
        Flyway.configure().dataSource(schemaUrl, user, password).locations("classpath:db/migration").load().migrate();
        System.out.println("ceiling schema " + schema + " migrated on " + server + " (same server as the app)");

        // one numbering across all phases: every subject is new, so every request is a fresh relationship
        var subjects = new AtomicLong();
        var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        var apps = new ArrayList<App>();
        for (var i = 0; i < urls.size(); i++) {
            var endpoint = URI.create(urls.get(i) + "/api/requests");
            ClosedLoop.Operation admission = (worker, ignored) -> {
                var seq = subjects.incrementAndGet();
                var body = "{\"operationId\":\"" + UUID.randomUUID() + "\",\"targetKey\":\"" + TARGETS.get((int) (seq % 2))
                        + "\",\"subjectId\":\"ad" + tag + "-" + seq + "\",\"reason\":\"benchmark admission\"}";
                var request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                        .header("X-Forwarded-User", "alice").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                return String.valueOf(http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
            };
            apps.add(new App(labels.isEmpty() ? ADMISSION : ADMISSION + " (" + labels.get(i) + ")", servers.get(i), admission));
        }

        var results = new ArrayList<ClosedLoop.Result>();
        try (var ceilingPool = pool(schemaUrl, user, password, pool, "ceiling");
             var localStatePool = pool(schemaUrl + "&useLocalSessionState=true", user, password, pool, "ceiling-local")) {
            var ceiling = new AdmissionCeiling(ceilingPool);
            var localState = new AdmissionCeiling(localStatePool);
            ClosedLoop.Operation rows = (worker, ignored) -> {
                var seq = subjects.incrementAndGet();
                ceiling.rows("cr" + tag + "-" + seq, TARGETS.get((int) (seq % 2)));
                return "ok";
            };
            ClosedLoop.Operation mirror = (worker, ignored) -> {
                var seq = subjects.incrementAndGet();
                ceiling.mirror("cm" + tag + "-" + seq, TARGETS.get((int) (seq % 2)));
                return "ok";
            };
            ClosedLoop.Operation mirrorLean = (worker, ignored) -> {
                var seq = subjects.incrementAndGet();
                ceiling.mirrorLean("cn" + tag + "-" + seq, TARGETS.get((int) (seq % 2)));
                return "ok";
            };
            ClosedLoop.Operation mirrorLocal = (worker, ignored) -> {
                var seq = subjects.incrementAndGet();
                localState.mirror("cl" + tag + "-" + seq, TARGETS.get((int) (seq % 2)));
                return "ok";
            };

            var top = concurrencies.stream().max(Comparator.naturalOrder()).orElse(8);
            System.out.println("warm-up (" + warmup.toSeconds() + " s each, not reported)");
            for (var app : apps) {
                ClosedLoop.run("warm-up " + app.name(), top, warmup, app.admission());
                drain(app.server(), user, password);
            }
            ClosedLoop.run("warm-up rows", top, warmup, rows);
            ClosedLoop.run("warm-up mirror", top, warmup, mirror);
            ClosedLoop.run("warm-up mirror-local", top, warmup, mirrorLocal);
            ClosedLoop.run("warm-up mirror-lean", top, warmup, mirrorLean);

            for (var c : concurrencies) {
                for (var round = 1; round <= rounds; round++) {
                    System.out.println("--- concurrency " + c + ", round " + round + " (" + Machine.load() + ")");
                    for (var app : apps) {
                        results.add(measure(app.name(), c, duration, app.admission(), own));
                        drain(app.server(), user, password);
                    }
                    results.add(measure("ceiling rows (1 tx)", c, duration, rows, own));
                    results.add(measure("ceiling mirror", c, duration, mirror, own));
                    results.add(measure("ceiling mirror useLocalSessionState", c, duration, mirrorLocal, own));
                    results.add(measure("ceiling mirror lean (issue 33)", c, duration, mirrorLean, own));
                }
            }
        } finally {
            if (!Boolean.getBoolean("keep")) {
                try (var c = DriverManager.getConnection(server + "?" + EmbeddedMariaDb.CONNECTION_PARAMETERS, user, password);
                     var s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS `" + schema + "`");
                }
            }
        }
        summarize(results, concurrencies, apps.stream().map(App::name).toList());
        System.out.println(Machine.load());
    }

    /**
     * One phase, started when the machine is quiet and repeated (up to {@link CpuWatch#attempts()} times) when other processes
     * used the shared cores meanwhile; keeps the least disturbed attempt.
     */
    static ClosedLoop.Result measure(String name, int c, Duration duration, ClosedLoop.Operation operation, Set<Long> own)
            throws InterruptedException {
        ClosedLoop.Result best = null;
        CpuWatch.Usage bestUsage = null;
        for (var attempt = 1; attempt <= CpuWatch.attempts(); attempt++) {
            CpuWatch.awaitQuiet(own, CpuWatch.quietWaitSeconds());
            var watch = CpuWatch.start(own);
            var result = ClosedLoop.run(name, c, duration, operation);
            var usage = watch.stop();
            System.out.println(result.line() + "  [" + usage + "]");
            if (best == null || usage.foreign() < bestUsage.foreign()) {
                best = result;
                bestUsage = usage;
            }
            if (!usage.disturbed()) {
                break;
            }
            if (attempt < CpuWatch.attempts()) {
                System.out.println("  disturbed by other processes on the shared cores: measuring again");
            }
        }
        return best;
    }

    /** Medians over the rounds, the ratios admission / ceiling for each app, and each app's admission / the first's. */
    static void summarize(List<ClosedLoop.Result> results, List<Integer> concurrencies, List<String> admissions) {
        System.out.println("=== summary (median of rounds; admission counts 202 answers only)");
        for (var c : concurrencies) {
            var first = median(results, admissions.getFirst(), c, true);
            for (var app : admissions) {
                var admission = median(results, app, c, true);
                var admissionP99 = medianP99(results, app, c);
                var label = app.equals(ADMISSION) ? "admission" : app;
                for (var name : List.of("ceiling rows (1 tx)", "ceiling mirror", "ceiling mirror useLocalSessionState",
                        "ceiling mirror lean (issue 33)")) {
                    var ceiling = median(results, name, c, false);
                    System.out.printf(Locale.ROOT, "c=%d %s %.1f/s (p99 %.1f ms) vs %s %.1f/s (p99 %.1f ms): ratio %.2f%n", c,
                            label, admission, admissionP99 / 1e6, name, ceiling, medianP99(results, name, c) / 1e6,
                            ceiling == 0 ? 0 : admission / ceiling);
                }
                if (!app.equals(admissions.getFirst())) {
                    System.out.printf(Locale.ROOT, "c=%d %s / %s: %.2f%n", c, label, admissions.getFirst(),
                            first == 0 ? 0 : admission / first);
                }
            }
        }
    }

    private static final String ADMISSION = "admission POST /api/requests";

    /** One app under load: its phase's name, its database server (to drain its steps) and its admission call. */
    private record App(String name, String server, ClosedLoop.Operation admission) {}

    private static List<String> list(String csv) {
        return java.util.Arrays.stream(csv.split(",")).map(String::strip).filter(e -> !e.isEmpty()).toList();
    }

    private static double median(List<ClosedLoop.Result> results, String name, int c, boolean accepted) {
        var values = results.stream().filter(r -> r.name().equals(name) && r.concurrency() == c)
                .mapToDouble(r -> accepted ? r.perSecond("202") : r.perSecond()).sorted().toArray();
        return values.length == 0 ? 0 : values[values.length / 2];
    }

    private static double medianP99(List<ClosedLoop.Result> results, String name, int c) {
        var values = results.stream().filter(r -> r.name().equals(name) && r.concurrency() == c)
                .mapToDouble(r -> r.latency().p99()).sorted().toArray();
        return values.length == 0 ? 0 : values[values.length / 2];
    }

    /**
     * Waits until the app has run the durable steps the admissions scheduled and sent (or, mail off, dropped) the
     * notifications they queued at their first attempt (its CPU is free again).
     */
    private static void drain(String server, String user, String password) throws SQLException, InterruptedException {
        var started = System.nanoTime();
        try (var c = DriverManager.getConnection(server + APP_SCHEMA + "?" + EmbeddedMariaDb.CONNECTION_PARAMETERS, user, password);
             var s = c.prepareStatement("select (select count(*) from scheduled_tasks where task_name = 'workflow-step')"
                     + " + (select count(*) from notification where sent_at is null and attempts = 0)")) {
            for (var i = 0; i < 600; i++) {
                try (var r = s.executeQuery()) {
                    r.next();
                    if (r.getLong(1) == 0) {
                        break;
                    }
                }
                Thread.sleep(500);
            }
        }
        Thread.sleep(3000);
        System.out.printf(Locale.ROOT, "  (background steps drained in %.1f s)%n", (System.nanoTime() - started) / 1e9);
    }

    private static HikariDataSource pool(String url, String user, String password, int size, String name) {
        var config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setPoolName(name);
        return new HikariDataSource(config);
    }
}
