package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Convergence;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.PreviousRelease;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 31 items 2 and 4: a rolling upgrade from the previous release to this tree, and the rollback, on one
 * database while requests flow, as docs/operations.md "Upgrading" tells an operator to do it.
 *
 * <p>Two instances of the previous release ({@link PreviousRelease}: the jar built from the commit recorded in
 * {@code previous-release.properties}) run with requests in every phase: approval pending (held by the approver),
 * merge request created with its pipeline running, batch claimed, merged awaiting the deploy callback, removals under
 * way (operator revocations). One instance of this tree starts (its Flyway migrations run while the old ones work),
 * then the old ones get SIGTERM one by one while submissions go on (a client that, like a load balancer, sends a
 * refused submission again with the same operationId to another instance). Then the rollback: an instance of the
 * previous release starts on the expanded schema and this tree's instance gets SIGTERM.
 *
 * <p>Afterwards: every request reached what it reaches without an upgrade (VALIDATED, the revocations REVOKED), none
 * is lost or doubled (one operation per operationId, one merge request per request), nothing was merged twice, no
 * answer was a 5xx other than the documented 503, and every stopped instance exited within its grace period with the
 * steps it held finished or released (none still picked by it once the dead-execution timeout passed).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RollingUpgradeSystemTest {

    /** Plain targets for the traffic; one file each, used round robin. */
    private static final int TARGETS = 24;
    private static final List<String> BATCHABLE = List.of("dashboards-viewer", "vpn-staging");
    /**
     * What the graceful stop may take (InstanceSettings.clusterDefaults()): the scheduler's shutdown-max-wait (5 s) for
     * running steps and as long again after interrupting them, the web server's shutdown phase (10 s), and 15 s for the
     * JVM on a loaded machine.
     */
    private static final Duration GRACE = Duration.ofSeconds(35);
    /** The dead-execution timeout of InstanceSettings.clusterDefaults() plus the heartbeat and the polling, with margin. */
    private static final Duration TAKE_OVER = Duration.ofSeconds(20);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withPlainTargets(TARGETS)
            // each phase lasts seconds, so every phase has requests in it when an instance stops
            .withSimulatorProperty("sandbox.gitlab.pipeline-duration", "6s")
            .withSimulatorProperty("sandbox.deploy.delay", "6s")
            .withSimulatorProperty("sandbox.approval.mode", "manual");

    private static PreviousRelease previous;
    private static Path previousJar;
    private static Traffic traffic;
    private static Approver approver;
    private static final List<String> grants = new CopyOnWriteArrayList<>();
    private static final List<String> revocations = new CopyOnWriteArrayList<>();
    private static final List<String> upgradeFigures = new ArrayList<>();

    @BeforeAll
    static void previousRelease() {
        previous = PreviousRelease.recorded();
        previousJar = previous.jar();
        approver = new Approver(cluster.sims().approval());
        approver.start();
    }

    @AfterAll
    static void stopClients() {
        if (traffic != null) {
            traffic.stop();
        }
        if (approver != null) {
            approver.stop();
        }
    }

    @Test
    @Order(1)
    void aRollingUpgradeUnderLoadLosesNothingDoesNothingTwiceAndAnswersNo5xxButTheDocumented503() {
        cluster.startAll(previousJar, "old-a", "old-b");
        var ds = cluster.dataSource();
        var otto = cluster.client("old-a", "otto");

        // grants to revoke during the switch: the removals under way
        var seeds = new ArrayList<String>();
        for (int i = 1; i <= 2; i++) {
            seeds.add(submitted(cluster.client("old-b", "alice").submit(UUID.randomUUID().toString(),
                    InstanceSettings.plainTargetKey(i), "svc-seed-" + i, "upgrade test")));
        }
        var seeded = Convergence.awaitAll(otto, seeds, Duration.ofSeconds(120));
        assertThat(seeded).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));

        traffic = new Traffic();
        traffic.start();
        // approval pending across the whole switch: decided only once the new release alone runs
        var held = new ArrayList<String>();
        for (int i = 3; i <= 4; i++) {
            var id = UUID.randomUUID().toString();
            approver.hold(id);
            held.add(submitted(cluster.client("old-a", "alice").submit(id, InstanceSettings.plainTargetKey(i),
                    "svc-held-" + i, "upgrade test")));
        }
        // the new release starts next to the old ones, which keep working; its migrations run now
        var migrationsBefore = Sql.number(ds, "select count(*) from flyway_schema_history");
        var newInstance = cluster.start("new-c");
        var migrationsAfter = Sql.number(ds, "select count(*) from flyway_schema_history");
        assertThat(Sql.number(ds, "select count(*) from flyway_schema_history where success = 0")).isZero();
        upgradeFigures.add("new-c (this tree) healthy after " + newInstance.lastStartup().toMillis() + " ms; "
                + (migrationsAfter - migrationsBefore) + " migrations applied by it while old-a and old-b served");
        var roster = newInstance.client("otto").get("/ops/instances");
        assertThat(roster.status()).as(roster.toString()).isEqualTo(200);
        upgradeFigures.add("roster with both releases: " + roster.data());

        // the first stop with requests in every phase; the second at least with approvals pending and merges in flight
        Poll.until("requests in every phase before old-a stops", Duration.ofSeconds(90),
                Duration.ofMillis(200), RollingUpgradeSystemTest::phases,
                p -> p.keySet().containsAll(List.of("APPROVAL_SENT", "BATCHED", "MERGED"))
                        && (p.containsKey("MR_CREATING") || p.containsKey("MR_CREATED")));
        // removals under way: the seeded grants revoked by an operator just now (a removal takes a round, a pipeline
        // and a deploy, seconds each), so they are REVOKING when old-a is told to stop
        for (int i = 1; i <= 2; i++) {
            var revoked = otto.post("/ops/bindings/svc-seed-" + i + "/" + InstanceSettings.plainTargetKey(i) + "/revoke", null);
            assertThat(revoked.status()).as(revoked.toString()).isEqualTo(202);
            revocations.add(revoked.data().path("operationId").asString());
        }
        var first = phases();
        assertThat(first).as("requests in every phase when old-a is told to stop").containsKeys("APPROVAL_SENT", "REVOKING");
        stopGracefully("old-a", first);
        var second = Poll.until("requests in flight before old-b stops", Duration.ofSeconds(90),
                Duration.ofMillis(200), RollingUpgradeSystemTest::phases,
                p -> p.containsKey("APPROVAL_SENT") && p.containsKey("MERGED")
                        && (p.containsKey("MR_CREATING") || p.containsKey("MR_CREATED")));
        stopGracefully("old-b", second);
        assertThat(cluster.liveInstances()).extracting(AppInstance::name).containsExactly("new-c");
        approver.release(held);
        traffic.stop();
        grants.addAll(held);
        grants.addAll(traffic.submitted());

        var reader = newInstance.client("otto");
        var converged = Convergence.awaitAll(reader, grants, Duration.ofSeconds(180));
        var removed = Convergence.awaitAll(reader, revocations, Duration.ofSeconds(120));
        upgradeFigures.add("traffic: " + traffic.summary());
        upgradeFigures.add("outcomes: grants " + new TreeMap<>(Invariants.outcomeTable(converged)) + ", revocations "
                + new TreeMap<>(Invariants.outcomeTable(removed)));
        Figures.record("rolling upgrade " + previous.version() + " -> this tree, two old instances, SIGTERM one by one",
                String.join("\n", upgradeFigures));

        assertThat(converged).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
        assertThat(removed).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("REVOKED"));
        assertDeliveredOnceEach(converged);
        traffic.assertNoUndocumented5xx();
    }

    @Test
    @Order(2)
    void aRollbackToThePreviousReleaseOnTheExpandedSchemaLosesNothingAndDoesNothingTwice() {
        var figures = new ArrayList<String>();
        traffic = new Traffic();
        traffic.start();
        var held = new ArrayList<String>();
        for (int i = 5; i <= 6; i++) {
            var id = UUID.randomUUID().toString();
            approver.hold(id);
            held.add(submitted(cluster.client("new-c", "alice").submit(id, InstanceSettings.plainTargetKey(i),
                    "svc-held-back-" + i, "rollback test")));
        }
        // the previous release starts on the schema this tree expanded: Flyway ignores the migrations it does not know
        var back = cluster.start("old-d", previousJar);
        figures.add("old-d (previous release) healthy on the expanded schema after " + back.lastStartup().toMillis() + " ms");
        var phases = Poll.until("requests in flight before new-c stops", Duration.ofSeconds(90), Duration.ofMillis(200),
                RollingUpgradeSystemTest::phases, p -> p.containsKey("APPROVAL_SENT") && p.containsKey("MERGED"));
        figures.add(stopGracefully("new-c", phases));
        approver.release(held);
        traffic.stop();
        var ids = new ArrayList<String>(held);
        ids.addAll(traffic.submitted());
        var converged = Convergence.awaitAll(back.client("otto"), ids, Duration.ofSeconds(180));
        figures.add("traffic: " + traffic.summary());
        figures.add("outcomes " + new TreeMap<>(Invariants.outcomeTable(converged)));
        Figures.record("rollback this tree -> " + previous.version() + " on the expanded schema", String.join("\n", figures));

        assertThat(converged).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
        assertDeliveredOnceEach(converged);
        traffic.assertNoUndocumented5xx();
        // the upgrade's requests are untouched by the rollback: still delivered once each
        var all = new ArrayList<String>(grants);
        all.addAll(ids);
        assertDeliveredOnceEach(all.stream().map(back.client("otto")::request).toList());
    }

    /**
     * SIGTERM to {@code name} (Process.destroy), then: it exited by itself within {@link #GRACE}, and every step it
     * held when it was told to stop is finished or no longer picked by it within {@link #TAKE_OVER} after the exit.
     */
    private static String stopGracefully(String name, Map<String, Integer> phases) {
        var ds = cluster.dataSource();
        var instance = cluster.instance(name);
        var held = Sql.stepsPickedBy(ds, name);
        var started = System.nanoTime();
        var exit = instance.stop(GRACE.plusSeconds(30));
        var stopped = Duration.ofNanos(System.nanoTime() - started);
        var left = Sql.stepsPickedBy(ds, name);
        var released = Poll.until("the steps " + name + " held finished or taken over", TAKE_OVER, Duration.ofMillis(200),
                () -> Sql.stepsPickedBy(ds, name), List::isEmpty);
        var releasedAfter = Duration.ofNanos(System.nanoTime() - started).minus(stopped);
        var line = "SIGTERM " + name + " with requests in " + new TreeMap<>(phases) + ": held " + held.size()
                + " steps, exited " + exit + " after " + stopped.toMillis() + " ms, " + left.size()
                + " still picked at the exit, none " + releasedAfter.toMillis() + " ms later";
        upgradeFigures.add(line);
        assertThat(released).isEmpty();
        // within the grace period, so by itself: AppInstance.stop kills only after GRACE + 30 s
        assertThat(stopped).as(name + " stops by itself within its grace period (exit " + exit + ")").isLessThanOrEqualTo(GRACE);
        return line;
    }

    /** How many subject-target relationships are in each status now (one query, cheap enough to poll). */
    private static Map<String, Integer> phases() {
        var counts = new TreeMap<String, Integer>();
        for (var row : Sql.rows(cluster.dataSource(), "select status, count(*) as n from binding group by status")) {
            counts.put(String.valueOf(row.get("status")), ((Number) row.get("n")).intValue());
        }
        return counts;
    }

    private static void assertDeliveredOnceEach(Collection<RequestView> views) {
        var sims = cluster.sims();
        var problems = new ArrayList<String>();
        for (var view : views) {
            problems.addAll(view.batchId() > 0 || BATCHABLE.contains(view.targetKey())
                    ? Invariants.deliveredInABatch(sims, view)
                    : Invariants.deliveredOnItsOwnMergeRequest(sims, view));
            var operations = Sql.number(cluster.dataSource(), "select count(*) from operation where subject_id = ?",
                    view.subjectId());
            if (operations != 1) {
                problems.add(view.operationId() + ": " + operations + " operations for subject " + view.subjectId());
            }
        }
        problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
        assertThat(problems).isEmpty();
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String submitted(ApiResponse response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(202);
        return response.data().path("operationId").asString();
    }

    /**
     * The approver: decides every pending ticket yes within 200 ms, except the held ones, until they are released.
     */
    private static final class Approver {
        private final ApprovalSimulator approval;
        private final Set<String> held = ConcurrentHashMap.newKeySet();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Approver(ApprovalSimulator approval) {
            this.approval = approval;
            approval.mode(ApprovalSimulator.Mode.MANUAL);
            thread = Thread.ofPlatform().daemon().name("upgrade-approver").unstarted(this::run);
        }

        void start() {
            thread.start();
        }

        void hold(String operationId) {
            held.add(operationId);
        }

        List<String> held() {
            return List.copyOf(held);
        }

        void release(Collection<String> operationIds) {
            held.removeAll(operationIds);
        }

        private void run() {
            while (running.get()) {
                for (var ticket : approval.pending()) {
                    if (!held.contains(ticket.form().operationId())) {
                        approval.decide(ticket.ticket(), true, "approver");
                    }
                }
                pause(Duration.ofMillis(200));
            }
        }

        void stop() {
            running.set(false);
        }
    }

    /**
     * Continuous submissions, one a second, to the live instances in turn: plain targets round robin, every third
     * to a batchable target. A submission that finds no listener (the instance is stopping) or gets a 503 is sent again
     * with the same operationId to the next instance, as a load balancer would; every answer's status is kept.
     */
    private static final class Traffic {
        private final List<String> submitted = new CopyOnWriteArrayList<>();
        private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        private final List<String> undocumented = new CopyOnWriteArrayList<>();
        private final AtomicInteger refused = new AtomicInteger();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread = Thread.ofPlatform().daemon().name("upgrade-traffic").unstarted(this::run);
        private static final AtomicInteger SEQUENCE = new AtomicInteger();
        private static final Duration PACE = Duration.ofSeconds(1);

        void start() {
            thread.start();
        }

        private void run() {
            var turn = 0;
            while (running.get()) {
                var n = SEQUENCE.incrementAndGet();
                var target = n % 3 == 0 ? BATCHABLE.get(n % 2) : InstanceSettings.plainTargetKey(7 + n % (TARGETS - 6));
                var id = UUID.randomUUID().toString();
                var subject = String.format("svc-up-%03d", n);
                for (int attempt = 0; attempt < 20 && running.get(); attempt++) {
                    var live = cluster.liveInstances();
                    if (live.isEmpty()) {
                        pause(Duration.ofMillis(100));
                        continue;
                    }
                    var via = live.get(turn++ % live.size());
                    try {
                        var response = via.client("alice").submit(id, target, subject, "rolling upgrade traffic");
                        statuses.computeIfAbsent(response.status(), s -> new AtomicInteger()).incrementAndGet();
                        if (response.status() >= 500 && !(response.status() == 503 && "UNAVAILABLE".equals(response.code()))) {
                            undocumented.add(via.name() + ": " + response);
                        }
                        if (response.is2xx()) {
                            submitted.add(id);
                            break;
                        }
                        if (response.status() < 500) {
                            undocumented.add(via.name() + " refused a valid submission: " + response);
                            break;
                        }
                    } catch (UncheckedIOException noListener) {
                        refused.incrementAndGet();
                    }
                    pause(Duration.ofMillis(100));
                }
                pause(PACE);
            }
        }

        void stop() {
            running.set(false);
            try {
                thread.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        List<String> submitted() {
            return List.copyOf(submitted);
        }

        String summary() {
            var counts = new TreeMap<Integer, Integer>();
            statuses.forEach((status, count) -> counts.put(status, count.get()));
            return submitted.size() + " submissions accepted; answers by status " + counts + "; " + refused.get()
                    + " connections refused (sent again elsewhere)";
        }

        void assertNoUndocumented5xx() {
            assertThat(undocumented).isEmpty();
        }
    }
}
