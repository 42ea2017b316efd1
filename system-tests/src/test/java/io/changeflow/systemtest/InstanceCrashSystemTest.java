package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Convergence;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances on one database; one is SIGKILLed while it is in the middle of a step: after the
 * first bot approved a merge request and before the merge. The other instance takes the step over
 * (after the dead-execution timeout, 5 s here) and finishes the work: nothing is lost (every request
 * VALIDATED) and nothing is done twice (no second approval attempt by a bot that already approved,
 * each merge request merged once, one merge request per request, every grant line once on main).
 * Prints the time from the kill until the survivor had taken over and until it made progress.
 *
 * <p>GitLab answers every call 250 ms late here, so steps take seconds and a kill lands inside one.
 * {@code -Dsystem.crashRequests=N} (default 10).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InstanceCrashSystemTest {

    static final int REQUESTS = Integer.getInteger("system.crashRequests", 10);
    static final int RANDOM_KILLS = Integer.getInteger("system.randomKills", 1);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            // one target (one grant file) per request of every wave
            .withPlainTargets(REQUESTS * (1 + RANDOM_KILLS))
            .withInstances("a", "b");

    @Test
    @Order(1)
    void theSurvivorFinishesTheStepOfAnInstanceKilledMidStepWithoutDoingAnythingTwice() {
        var sims = cluster.sims();
        var ds = cluster.dataSource();
        sims.faults(Faults.GITLAB, new FaultSettings(250, 0, 0, 0, 0, 0, 0));
        var ids = new ArrayList<String>();
        for (int i = 1; i <= REQUESTS; i++) {
            // admission on both instances
            var instance = i % 2 == 0 ? "a" : "b";
            var response = cluster.client(instance, "alice").submit(InstanceSettings.plainTargetKey(i),
                    String.format("svc-crash-%02d", i), "crash test");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            ids.add(response.data().path("operationId").asString());
        }

        // wait until "a" is inside a HANDLE step whose merge request one bot approved and nobody merged yet
        var otto = cluster.client("b", "otto");
        var mergeRequestOf = new HashMap<String, Long>();
        var caught = Poll.until("instance a in the middle of approving and merging", Duration.ofSeconds(90),
                Duration.ofMillis(50), () -> midStep(Sql.stepsPickedBy(ds, "a"), otto, mergeRequestOf), c -> c != null);
        var held = Sql.stepsPickedBy(ds, "a");
        var approvalsAtKill = sims.gitlab().approvedBy(SimulatorHost.PROJECT, caught.iid());

        cluster.instance("a").kill();
        var killedAt = System.nanoTime();

        // taken over: none of the steps "a" held is still marked as running on "a"
        Poll.until("the steps of the killed instance taken over", Duration.ofSeconds(60), Duration.ofMillis(50),
                () -> Sql.rows(ds, "select task_instance, picked_by from scheduled_tasks where picked = true and picked_by = 'a'"),
                List::isEmpty);
        var takenOver = Duration.ofNanos(System.nanoTime() - killedAt);
        // resumed: the caught merge request moves again (a further approval, or merged)
        Poll.until("progress on merge request !" + caught.iid(), Duration.ofSeconds(60), Duration.ofMillis(50),
                () -> sims.gitlab().approvedBy(SimulatorHost.PROJECT, caught.iid()).size() > approvalsAtKill.size()
                        || "merged".equals(sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, caught.iid())),
                Boolean.TRUE::equals);
        var resumed = Duration.ofNanos(System.nanoTime() - killedAt);

        var b = cluster.client("b", "alice");
        var views = Poll.until("every request at rest", Duration.ofSeconds(120), Duration.ofMillis(500),
                () -> ids.stream().map(b::request).toList(), all -> all.stream().allMatch(RequestView::isAtRest));
        var allDone = Duration.ofNanos(System.nanoTime() - killedAt);
        sims.clearFaults();

        Figures.record("SIGKILL mid-step, two instances, " + REQUESTS + " requests",
                "killed a while it held " + held + "; merge request !" + caught.iid() + " of " + caught.operationId()
                        + " approved by " + approvalsAtKill + " at the kill\n"
                        + "steps taken over by b after " + takenOver.toMillis() + " ms (dead-execution timeout 5 s, heartbeat 1 s)\n"
                        + "survivor resumed the interrupted merge request after " + resumed.toMillis() + " ms\n"
                        + "all requests at rest " + allDone.toMillis() + " ms after the kill: "
                        + new TreeMap<>(Invariants.outcomeTable(views)));

        // nothing lost, and no operator needed: a kill interrupts a step, which the survivor resumes to the end
        assertThat(views).allSatisfy(v -> assertThat(v.hint()).as(v.toString()).isIn("NONE", "KEEP_WAITING"));
        var converged = Convergence.awaitAll(cluster.client("b", "otto"), ids, Duration.ofSeconds(60));
        assertThat(converged).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
        var problems = new ArrayList<String>();
        converged.forEach(v -> problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, v)));
        problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
        assertThat(problems).isEmpty();
        assertThat(cluster.instance("b").isAlive()).isTrue();

        // the killed instance comes back (same port, same directory) and takes work again
        var restarted = cluster.instance("a").start();
        var again = restarted.client("alice").submit(InstanceSettings.plainTargetKey(1), "svc-after-restart", "restart");
        assertThat(again.status()).as(again.toString()).isEqualTo(202);
        var id = again.data().path("operationId").asString();
        var last = Poll.until("a request through the restarted instance VALIDATED", Duration.ofSeconds(60),
                Duration.ofMillis(300), () -> restarted.client("alice").request(id), RequestView::isAtRest);
        Figures.record("SIGKILL mid-step: the killed instance restarted", "healthy again after "
                + restarted.lastStartup().toMillis() + " ms; its first request ended " + last.outcome());
        var first = Convergence.awaitAll(restarted.client("otto"), List.of(id), Duration.ofSeconds(60)).getFirst();
        assertThat(first.status()).as(first.toString()).isEqualTo("VALIDATED");
        assertThat(Invariants.deliveredOnItsOwnMergeRequest(sims, first)).isEmpty();
    }

    /**
     * Random kills ({@code -Dsystem.randomKills=K}: 1 in CI, more in the long run): K times, while a wave of
     * requests flows, one instance chosen at random is SIGKILLed at a random moment (once a random number
     * of the wave's requests has a merge request) and started again. Afterwards every request of every
     * wave is VALIDATED by itself (no operator acts), and nothing was done twice. {@code -Dsystem.seed=S} makes the choices repeatable.
     */
    @Test
    @Order(2)
    void nothingIsLostOrDoneTwiceWhenInstancesAreKilledAtRandomMoments() {
        var kills = RANDOM_KILLS;
        assertThat(kills).as("-Dsystem.randomKills").isPositive();
        var random = new Random(Long.getLong("system.seed", 7L));
        var sims = cluster.sims();
        sims.clearFaults();
        sims.faults(Faults.GITLAB, new FaultSettings(100, 0, 0, 0, 0, 0, 0));
        for (var instance : cluster.instances()) {
            if (!instance.isAlive()) {
                instance.start();
            }
        }
        var ids = new ArrayList<String>();
        var log = new StringBuilder();
        for (int k = 1; k <= kills; k++) {
            var wave = new ArrayList<String>();
            for (int i = 1; i <= REQUESTS; i++) {
                var via = cluster.liveInstances().get(random.nextInt(cluster.liveInstances().size()));
                var response = via.client("alice").submit(InstanceSettings.plainTargetKey(k * REQUESTS + i),
                        String.format("svc-wave%02d-%02d", k, i), "random kills");
                assertThat(response.status()).as(response.toString()).isEqualTo(202);
                wave.add(response.data().path("operationId").asString());
            }
            var threshold = random.nextInt(REQUESTS);
            var reader = cluster.client(cluster.liveInstances().getFirst().name(), "otto");
            Poll.tryUntil(Duration.ofSeconds(60), Duration.ofMillis(50),
                    () -> wave.stream().map(reader::request).filter(v -> v.mergeRequestIid() > 0).count(),
                    withMergeRequest -> withMergeRequest >= threshold);
            var victim = cluster.liveInstances().get(random.nextInt(cluster.liveInstances().size()));
            var held = Sql.stepsPickedBy(cluster.dataSource(), victim.name());
            victim.kill();
            log.append("wave ").append(k).append(": killed ").append(victim.name()).append(" after ").append(threshold)
                    .append(" merge requests, holding ").append(held.size()).append(" steps; ");
            var survivor = cluster.client(cluster.liveInstances().getFirst().name(), "otto");
            Poll.until("wave " + k + " at rest", Duration.ofSeconds(120), Duration.ofMillis(500),
                    () -> wave.stream().map(survivor::request).toList(), vs -> vs.stream().allMatch(RequestView::isAtRest));
            victim.start();
            ids.addAll(wave);
        }
        sims.clearFaults();
        var converged = Convergence.awaitAll(cluster.client("a", "otto"), ids, Duration.ofSeconds(90));
        Figures.record("random SIGKILLs: " + kills + " waves of " + REQUESTS + " requests", log + "\noperator actions: none; outcome "
                + new TreeMap<>(Invariants.outcomeTable(converged)));
        assertThat(converged).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
        var problems = new ArrayList<String>();
        converged.forEach(v -> problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, v)));
        problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
        assertThat(problems).isEmpty();
    }

    /** The request and merge request of a HANDLE step of {@code picked} between the first approval and the merge. */
    private static Caught midStep(List<String> picked, ApiClient otto,
                                  Map<String, Long> mergeRequestOf) {
        var sims = cluster.sims();
        for (var step : picked) {
            if (!step.startsWith("HANDLE:")) {
                continue;
            }
            var op = step.substring("HANDLE:".length());
            var iid = mergeRequestOf.computeIfAbsent(op, id -> {
                var known = otto.request(id).mergeRequestIid();
                return known < 0 ? null : known;
            });
            if (iid == null) {
                continue;
            }
            var approvals = sims.gitlab().approvedBy(SimulatorHost.PROJECT, iid).size();
            if (approvals >= 1 && "opened".equals(sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid))) {
                return new Caught(op, iid);
            }
        }
        return null;
    }

    private record Caught(String operationId, long iid) {}
}
