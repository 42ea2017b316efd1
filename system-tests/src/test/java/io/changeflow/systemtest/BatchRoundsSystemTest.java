package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.OperatorRecovery;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Overlapping batch rounds on two instances: the recurring round (every second, on one instance at a
 * time) and manual rounds fired at both instances at the same moment, for {@code -Dsystem.rounds=N}
 * iterations (CI 40, the long run 100), in two partitions, while requests keep being admitted. Never
 * two active batches in a partition, never a request in two batches (checked through
 * {@code GET /ops/batches} during the run and the membership history afterwards), every admission
 * answered 202 while the rounds run (latency recorded), and in the end every request merged once.
 */
class BatchRoundsSystemTest {

    static final int ROUNDS = Integer.getInteger("system.rounds", 40);
    static final List<String> PARTITIONS = List.of("global", "vpn");

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withInstanceProperty("changeflow.batch.round-interval", "1s")
            // quick batches: many claims in little time
            .withSimulatorProperty("sandbox.gitlab.pipeline-duration", "500ms")
            .withSimulatorProperty("sandbox.gitlab.checking-duration", "100ms")
            .withSimulatorProperty("sandbox.approval.auto-delay", "300ms")
            .withSimulatorProperty("sandbox.deploy.delay", "200ms")
            // vpn-staging gets a partition of its own: two partitions run batches in parallel
            .withInstanceProperty("changeflow.catalog.targets[2].partition", "vpn")
            .withInstances("a", "b");

    @Test
    void overlappingRoundsOnTwoInstancesNeverRunTwoBatchesInAPartitionAndAdmissionGoesOn() throws Exception {
        var a = cluster.client("a", "alice");
        var b = cluster.client("b", "bob");
        var opsA = cluster.client("a", "otto");
        var opsB = cluster.client("b", "otto");
        var ids = Collections.synchronizedList(new ArrayList<String>());
        var admissions = Collections.synchronizedList(new ArrayList<Duration>());
        var feedAdmissions = new ArrayList<Duration>();
        var roundCodes = new TreeMap<String, Integer>();
        var violations = new ArrayList<String>();
        var maxActive = new HashMap<String, Integer>();
        var idleIterations = 0;
        var started = System.nanoTime();

        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < ROUNDS; i++) {
                final var n = i;
                var partition = PARTITIONS.get(i % 2);
                var target = partition.equals("vpn") ? "vpn-staging" : "dashboards-viewer";
                var submitter = i % 2 == 0 ? a : b;
                // feed the waiting set, then go on once this partition's slot is free and approved requests wait
                // in it, so the two manual rounds race each other (and the recurring one) for a real claim; <= 3 s
                var fed = submitter.submit(target, String.format("svc-feed-%03d", i), "rounds");
                assertThat(fed.status()).as(fed.toString()).isEqualTo(202);
                feedAdmissions.add(fed.latency());
                ids.add(fed.data().path("operationId").asString());
                var paced = Poll.tryUntil(Duration.ofSeconds(3), Duration.ofMillis(20), () -> claimable(partition), c -> c);
                if (paced.isEmpty()) {
                    idleIterations++;
                }
                // admission, a manual round on each instance, all at once
                List<Future<ApiResponse>> calls = pool.invokeAll(List.<Callable<ApiResponse>>of(
                        () -> submitter.submit(target, String.format("svc-round-%03d", n), "rounds"),
                        () -> opsA.batchRound(partition),
                        () -> opsB.batchRound(partition)));
                var admitted = calls.get(0).get();
                assertThat(admitted.status()).as("admission during round " + i + ": " + admitted).isEqualTo(202);
                admissions.add(admitted.latency());
                ids.add(admitted.data().path("operationId").asString());
                for (var round : List.of(calls.get(1).get(), calls.get(2).get())) {
                    assertThat(round.status()).as(round.toString()).isEqualTo(200);
                    roundCodes.merge(round.code(), 1, Integer::sum);
                }
                checkActiveBatches((i % 2 == 0 ? opsA : opsB).batches(50), violations, maxActive);
            }
        }
        var loop = Duration.ofNanos(System.nanoTime() - started);

        // the recurring rounds take in what is still waiting
        var views = Poll.until("every admitted request at rest", Duration.ofSeconds(60 + 2L * ROUNDS), Duration.ofSeconds(1),
                () -> {
                    var vs = ids.stream().map(opsA::request).toList();
                    checkActiveBatches(opsB.batches(50), violations, maxActive);
                    return vs;
                }, vs -> vs.stream().allMatch(RequestView::isAtRest));
        var drained = Duration.ofNanos(System.nanoTime() - started);
        // a merge can give up when merges into one branch crowd it (system-tests/README.md): the runbook's re-trigger
        var recovery = OperatorRecovery.retriggerUntilValidated(opsA, ids, 3, Duration.ofSeconds(60));

        var batches = Sql.rows(cluster.dataSource(), "select partition_key, status, count(*) as n from merge_batch"
                + " group by partition_key, status order by partition_key, status");
        Figures.record("overlapping batch rounds: " + ROUNDS + " iterations on two instances, partitions " + PARTITIONS,
                "manual round answers: " + roundCodes + " (plus the recurring round every second); iterations that "
                        + "found no free slot with requests waiting within 3 s: " + idleIterations + "\n"
                        + "admission latency (POST /api/requests fired together with the two manual rounds): "
                        + Figures.latencies(admissions) + "\n"
                        + "admission latency (POST /api/requests between rounds, recurring rounds running): "
                        + Figures.latencies(feedAdmissions) + "\n"
                        + "most active batches seen in one partition at once: " + maxActive + "\n"
                        + "batches by partition and status (1 RUNNING, 2 SUCCEEDED, 3 FAILED, 4 BLOCKED): " + batches + "\n"
                        + "loop " + loop.toMillis() + " ms; all " + ids.size() + " requests at rest after "
                        + drained.toMillis() + " ms: " + new TreeMap<>(Invariants.outcomeTable(views))
                        + "; operator re-triggers needed afterwards: " + recovery.retriggers());

        assertThat(violations).isEmpty();
        assertThat(Invariants.batchMembershipProblems(cluster.dataSource())).isEmpty();
        assertThat(Sql.rows(cluster.dataSource(), "select partition_key, count(*) as n from merge_batch where status in (1, 4)"
                + " group by partition_key having count(*) > 1")).isEmpty();
        assertThat(roundCodes).containsKey("CLAIMED");
        var problems = new ArrayList<String>();
        recovery.views().forEach(v -> problems.addAll(Invariants.deliveredInABatch(cluster.sims(), v)));
        assertThat(problems).isEmpty();
    }

    /** The partition has no active batch and approved requests wait in it. */
    private static boolean claimable(String partition) {
        var ds = cluster.dataSource();
        return Sql.number(ds, "select count(*) from merge_batch where partition_key = ? and status in (1, 4)", partition) == 0
                && Sql.number(ds, "select count(*) from merge_batch_request where partition_key = ? and batch_id is null",
                partition) > 0;
    }

    /** At most one RUNNING or BLOCKED batch per partition, and no request in two active batches. */
    private static void checkActiveBatches(JsonNode batches, List<String> violations,
                                           Map<String, Integer> maxActive) {
        var activePerPartition = new HashMap<String, Integer>();
        var activeBatchOf = new HashMap<String, Long>();
        for (var batch : batches) {
            var status = batch.path("status").asString();
            if (!status.equals("RUNNING") && !status.equals("BLOCKED")) {
                continue;
            }
            var partition = batch.path("partition").asString();
            var active = activePerPartition.merge(partition, 1, Integer::sum);
            maxActive.merge(partition, active, Math::max);
            if (active > 1) {
                violations.add("two active batches in partition " + partition + ": " + batches);
            }
            for (var member : batch.path("members")) {
                var op = member.path("operationId").asString();
                var other = activeBatchOf.put(op, batch.path("id").asLong());
                if (other != null) {
                    violations.add(op + " in active batches " + other + " and " + batch.path("id").asLong());
                }
            }
        }
    }
}
