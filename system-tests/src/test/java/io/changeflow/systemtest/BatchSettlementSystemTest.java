package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.GitLabCalls;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * Batch aggregation (issue 7) on two instances: a batch lands as one merge request holding every
 * grant; a batch failing because of one member is bisected until only that member fails; a merge that
 * races the settlement's close is settled as merged; a batch whose instance is SIGKILLed mid-step is
 * finished by the other instance (or settled by the sweep); a BLOCKED batch that GitLab errors keep from being
 * settled is abandoned past the batch timeout, freeing its slot. Rounds are only the operators' manual
 * ones here ({@code round-interval} 1 h), so each test decides what a batch holds. The tests share the
 * partition {@code global} and run one after the other.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BatchSettlementSystemTest {

    static final int BATCH_SIZE = Integer.getInteger("system.batchSize", 8);
    static final String DASHBOARDS = "dashboards-viewer";
    static final String VPN = "vpn-staging";
    static final Duration BATCH_TIMEOUT = Duration.ofSeconds(Math.max(30, 3L * BATCH_SIZE));

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withInstanceProperty("changeflow.batch.round-interval", "1h")
            // the production maximum (16), or more for -Dsystem.batchSize beyond it: a round claims the whole batch
            .withInstanceProperty("changeflow.batch.max-requests", String.valueOf(Math.max(16, BATCH_SIZE)))
            // a batch whose pipeline hangs is BLOCKED after 12 s (the race test)
            .withInstanceProperty("changeflow.workflow.pipeline.timeout", "12s")
            // and its pipeline is looked at again only every pending-recheck (10 min, the default): the blocked batch
            // of the GitLab errors test keeps its batch step throughout, and the sweep still frees its slot
            // transient GitLab failures retried quickly: a step gives up after its retries within seconds
            .withInstanceProperty("changeflow.workflow.transient-backoff-base", "200ms")
            .withInstanceProperty("changeflow.workflow.transient-backoff-max", "1s")
            .withInstanceProperty("changeflow.workflow.transient-deadline", "10s")
            // and GitLab is tried again 1 s after the errors opened the breaker (the first batch after them lands)
            .withInstanceProperty("changeflow.gitlab.circuit-breaker.wait-duration-in-open-state", "1s")
            // a RUNNING batch is resumed after 15 s without a step and settled after the batch timeout (the crash
            // test); a BLOCKED batch nobody could settle is settled again after 15 s and abandoned past the timeout
            // (the GitLab errors test: at the timeout, whatever step it holds): 30 s, longer for a -Dsystem.batchSize
            // beyond CI's so the first batch finishes
            .withInstanceProperty("changeflow.batch.lost-task-after", "15s")
            .withInstanceProperty("changeflow.batch.timeout", BATCH_TIMEOUT.toSeconds() + "s")
            .withInstances("a", "b");

    @Test
    @Order(1)
    void aBatchOfRequestsLandsAsOneMergeRequestHoldingEveryGrant() {
        var alice = cluster.client("a", "alice");
        var ids = new ArrayList<String>();
        var gitlabCallsBefore = cluster.sims().gitlabCalls().all().size();
        for (int i = 1; i <= BATCH_SIZE; i++) {
            // both batchable targets: one merge request, one commit, two grant files
            ids.add(submit(alice, i % 4 == 0 ? VPN : DASHBOARDS, String.format("svc-batch-%02d", i)));
        }
        awaitWaiting(alice, ids);

        var round = cluster.client("b", "otto").batchRound("global");
        assertThat(round.code()).as(round.toString()).isEqualTo("CLAIMED");
        assertThat(texts(round.data().path("members"))).containsExactlyInAnyOrderElementsOf(ids);
        var batchId = round.data().path("batchId").asLong();

        var views = awaitAtRest(alice, ids, Duration.ofSeconds(60));
        // issue 15: every GitLab call from the first submission until every member was at rest, over the members
        Figures.record("GitLab calls per member of a batch of " + BATCH_SIZE + " (simulator counters)", GitLabCalls.perRequest(
                cluster.sims().gitlabCalls().all(), gitlabCallsBefore, BATCH_SIZE, "members of one batch"));
        var problems = new ArrayList<String>();
        views.forEach(v -> problems.addAll(Invariants.deliveredInABatch(cluster.sims(), v)));
        assertThat(problems).isEmpty();
        assertThat(views).allSatisfy(v -> assertThat(v.batchId()).isEqualTo(batchId));

        var merges = cluster.sims().mergeLog().merges().stream()
                .filter(m -> m.operationIds().stream().anyMatch(ids::contains)).toList();
        assertThat(merges).as("one merge request carried every member").hasSize(1);
        assertThat(merges.getFirst().operationIds()).containsExactlyInAnyOrderElementsOf(ids);
        var batch = batch(batchId);
        assertThat(batch.path("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(batch.path("mergeRequest").path("iid").asLong()).isEqualTo(merges.getFirst().iid());
        Figures.record("batch of " + BATCH_SIZE, "batch " + batchId + " landed as merge request !" + merges.getFirst().iid()
                + " with " + merges.getFirst().operationIds().size() + " operations; files changed: "
                + Invariants.grantFileOf(DASHBOARDS) + ", " + Invariants.grantFileOf(VPN));
    }

    @Test
    @Order(2)
    void aBatchFailingBecauseOfOneMemberIsBisectedUntilOnlyThatMemberFails() {
        var alice = cluster.client("a", "alice");
        var good = new ArrayList<String>();
        for (int i = 1; i <= 3; i++) {
            good.add(submit(alice, DASHBOARDS, "svc-bisect-" + i));
        }
        // the simulator fails the pipeline of any change containing "fail_pipeline"
        var bad = submit(alice, DASHBOARDS, "svc-fail_pipeline");
        var all = new ArrayList<>(good);
        all.add(2, bad);
        awaitWaiting(alice, all);

        var otto = List.of(cluster.client("a", "otto"), cluster.client("b", "otto"));
        var rounds = new ArrayList<String>();
        var views = Poll.until("the good members VALIDATED and the bad one failed alone", Duration.ofSeconds(150),
                Duration.ofMillis(500), () -> {
                    var round = otto.get(rounds.size() % 2).batchRound("global");
                    if ("CLAIMED".equals(round.code())) {
                        rounds.add(round.data().path("batchId").asLong() + ":" + texts(round.data().path("members")).size());
                    }
                    return all.stream().map(alice::request).toList();
                }, vs -> vs.stream().allMatch(RequestView::isAtRest)
                        && vs.stream().filter(v -> !v.operationId().equals(bad)).allMatch(v -> "VALIDATED".equals(v.status())));

        var badView = views.stream().filter(v -> v.operationId().equals(bad)).findFirst().orElseThrow();
        assertThat(badView.hint()).as(badView.toString()).isEqualTo("CONTACT_MAINTAINERS");
        assertThat(badView.status()).isNotEqualTo("VALIDATED");
        assertThat(cluster.sims().mergeLog().mergesOf(bad)).as("the culprit never merged").isZero();
        assertThat(cluster.sims().grantLinesOnMain(Invariants.grantFileOf(DASHBOARDS), bad)).isZero();
        var problems = new ArrayList<String>();
        views.stream().filter(v -> !v.operationId().equals(bad))
                .forEach(v -> problems.addAll(Invariants.deliveredInABatch(cluster.sims(), v)));
        assertThat(problems).isEmpty();

        var history = Sql.rows(cluster.dataSource(), "select b.id, b.status, b.depth, count(h.id) as claimed from merge_batch b"
                + " join merge_batch_membership_history h on h.batch_id = b.id and h.action = 'CLAIMED'"
                + " where h.operation_id = ? group by b.id, b.status, b.depth order by b.id", bad);
        assertThat(history).as("the culprit's batches, ever smaller").hasSizeGreaterThanOrEqualTo(3);
        Figures.record("bisection of a batch with one bad member (4 members)", "claimed batches (id:size) " + rounds
                + "; the culprit's batches (id, status 3=FAILED, depth): " + history + "; culprit ends "
                + badView.outcome());
    }

    @Test
    @Order(3)
    void aMergeRacingTheSettlementsCloseIsSettledAsMerged() {
        var alice = cluster.client("a", "alice");
        var otto = cluster.client("b", "otto");
        var sims = cluster.sims();
        var ids = List.of(submit(alice, DASHBOARDS, "svc-race-1"), submit(alice, VPN, "svc-race-2"));
        awaitWaiting(alice, ids);

        var round = otto.batchRound("global");
        assertThat(round.code()).as(round.toString()).isEqualTo("CLAIMED");
        var batchId = round.data().path("batchId").asLong();
        // the batch's pipeline never finishes: the batch ends up BLOCKED, holding the slot
        sims.gitlab().forceBranchPipeline(SimulatorHost.PROJECT, "changeflow/batch-" + batchId, PipelineOutcome.HANG);
        var blocked = Poll.until("batch " + batchId + " BLOCKED", Duration.ofSeconds(45), Duration.ofMillis(500),
                () -> batch(batchId), b -> "BLOCKED".equals(b.path("status").asString()));
        var iid = blocked.path("mergeRequest").path("iid").asLong();
        assertThat(awaitAtRest(alice, ids, Duration.ofSeconds(5)))
                .allSatisfy(v -> assertThat(v.hint()).as(v.toString()).isEqualTo("KEEP_WAITING"));

        // someone merges the merge request by hand at the very moment the settlement's close call arrives
        var mergedByHand = new AtomicReference<Integer>();
        var sawClose = new AtomicBoolean();
        sims.gitlabCalls().beforeNext(call -> call.iid() == iid && call.isMergeRequestUpdate(), call -> {
            sawClose.set(true);
            mergedByHand.set(sims.mergeByHand(iid));
        });
        var settled = otto.settleBatch(batchId);

        assertThat(settled.status()).as(settled.toString()).isEqualTo(200);
        assertThat(settled.code()).isEqualTo("SETTLED");
        assertThat(sawClose).as("the settlement tried to close the merge request").isTrue();
        assertThat(mergedByHand.get()).as("the hand merge went through just before the close").isEqualTo(200);
        assertThat(settled.data().path("outcome").asString()).isEqualTo("MERGED_WINS");
        assertThat(settled.data().path("batchStatus").asString()).isEqualTo("SUCCEEDED");

        var views = awaitAtRest(alice, ids, Duration.ofSeconds(30));
        assertThat(views).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
        for (var op : ids) {
            assertThat(sims.mergeLog().mergesOf(op)).isEqualTo(1);
        }
        assertThat(sims.mergeLog().mergesOf(SimulatorHost.PROJECT, iid)).isEqualTo(1);
        assertThat(sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid)).isEqualTo("merged");
        assertThat(sims.grantLinesOnMain(Invariants.grantFileOf(DASHBOARDS), ids.get(0))).isEqualTo(1);
        assertThat(sims.grantLinesOnMain(Invariants.grantFileOf(VPN), ids.get(1))).isEqualTo(1);
        assertThat(batch(batchId).path("status").asString()).isEqualTo("SUCCEEDED");
        sims.gitlab().forceBranchPipeline(SimulatorHost.PROJECT, "changeflow/batch-" + batchId, PipelineOutcome.AUTO);
    }

    @Test
    @Order(4)
    void aBatchWhoseInstanceIsKilledMidStepIsFinishedByTheOtherInstance() {
        var sims = cluster.sims();
        var ds = cluster.dataSource();
        var alice = cluster.client("a", "alice");
        var ids = new ArrayList<String>();
        for (int i = 1; i <= 3; i++) {
            ids.add(submit(alice, DASHBOARDS, "svc-crashbatch-" + i));
        }
        awaitWaiting(alice, ids);
        sims.faults(Faults.GITLAB, new FaultSettings(250, 0, 0, 0, 0, 0, 0));
        var round = cluster.client("a", "otto").batchRound("global");
        assertThat(round.code()).as(round.toString()).isEqualTo("CLAIMED");
        var batchId = round.data().path("batchId").asLong();

        var runner = Poll.until("an instance running the step of batch " + batchId, Duration.ofSeconds(30), Duration.ofMillis(25),
                () -> Sql.rows(ds, "select picked_by from scheduled_tasks where picked = true and task_instance = ?",
                        "BATCH:" + batchId), rows -> !rows.isEmpty());
        var victim = String.valueOf(runner.getFirst().get("picked_by"));
        var survivor = victim.equals("a") ? "b" : "a";
        cluster.instance(victim).kill();
        var killedAt = System.nanoTime();

        var survivorOps = cluster.client(survivor, "otto");
        var views = Poll.until("every member of the crashed batch VALIDATED", Duration.ofSeconds(120), Duration.ofMillis(500),
                () -> {
                    // members a settlement sent back to the waiting set travel in a later round
                    survivorOps.batchRound("global");
                    return ids.stream().map(survivorOps::request).toList();
                }, vs -> vs.stream().allMatch(v -> "VALIDATED".equals(v.status())));
        var finishedAfter = Duration.ofNanos(System.nanoTime() - killedAt);
        sims.clearFaults();

        var ended = batch(batchId, survivorOps);
        Figures.record("SIGKILL of the instance running a batch step", "killed " + victim + " while it ran BATCH:" + batchId
                + "; the batch ended " + ended.path("status").asString() + " (" + ended.path("detail").asString()
                + "); all " + ids.size() + " members VALIDATED " + finishedAfter.toMillis() + " ms after the kill");
        var problems = new ArrayList<String>();
        views.forEach(v -> problems.addAll(Invariants.deliveredInABatch(sims, v)));
        assertThat(problems).isEmpty();
        assertThat(Invariants.batchMembershipProblems(cluster.dataSource())).isEmpty();
    }

    /**
     * Issue 36, item 5: a batch is BLOCKED (its pipeline never finishes) and GitLab then answers every call with an
     * error, so no settle can close its merge request. Its batch step still watches the pipeline (next look after
     * {@code pending-recheck}, 10 min); past the batch timeout the sweep settles it anyway and abandons it: FAILED, its
     * slot free, every member in an explicit state a person acts on. Once GitLab answers again an operator re-admits
     * the members and the next round of the same partition lands them.
     */
    @Test
    @Order(5)
    void aBlockedBatchUnderGitLabErrorsFreesItsSlotAndItsMembersConverge() {
        var sims = cluster.sims();
        var instance = cluster.liveInstances().getFirst().name();
        var alice = cluster.client(instance, "alice");
        var otto = cluster.client(instance, "otto");
        var ids = List.of(submit(alice, DASHBOARDS, "svc-blocked-1"), submit(alice, VPN, "svc-blocked-2"));
        awaitWaiting(alice, ids);
        var round = otto.batchRound("global");
        assertThat(round.code()).as(round.toString()).isEqualTo("CLAIMED");
        var claimed = Instant.now();
        var batchId = round.data().path("batchId").asLong();
        var branch = "changeflow/batch-" + batchId;
        sims.gitlab().forceBranchPipeline(SimulatorHost.PROJECT, branch, PipelineOutcome.HANG);
        try {
            var blocked = Poll.until("batch " + batchId + " BLOCKED", Duration.ofSeconds(45), Duration.ofMillis(300),
                    () -> batch(batchId, otto), b -> "BLOCKED".equals(b.path("status").asString()));
            var iid = blocked.path("mergeRequest").path("iid").asLong();
            sims.faults(Faults.GITLAB, new FaultSettings(0, 1.0, 0, 0, 0, 0, 0));
            var erring = Instant.now();

            var failed = Poll.until("batch " + batchId + " abandoned under GitLab errors", BATCH_TIMEOUT.plusSeconds(40),
                    Duration.ofMillis(500), () -> batch(batchId, otto), b -> "FAILED".equals(b.path("status").asString()));
            Figures.record("BLOCKED batch under GitLab errors: from the first error to the slot freed",
                    Duration.between(erring, Instant.now()).toMillis() + " ms, " + Duration.between(claimed, Instant.now())
                            .toMillis() + " ms from the claim (batch timeout " + BATCH_TIMEOUT.toSeconds()
                            + " s, pending-recheck 10 min, sweep every 2 s): " + failed.path("detail").asString());
            assertThat(Sql.rows(cluster.dataSource(), "select task_instance from scheduled_tasks where task_instance = ?",
                    "BATCH:" + batchId)).as("its batch step (the pipeline watch) was still held").hasSize(1);
            var members = Poll.until("every member in an explicit state", Duration.ofSeconds(10), Duration.ofMillis(300),
                    () -> ids.stream().map(alice::request).toList(), vs -> vs.stream().allMatch(RequestView::hasConverged));
            assertThat(members).allSatisfy(v -> assertThat(v.hint()).as(v.toString()).isEqualTo("CONTACT_MAINTAINERS"));
            for (var id : ids) {
                assertThat(sims.grantLinesOnMain(Invariants.grantFileOf(id.equals(ids.get(0)) ? DASHBOARDS : VPN), id))
                        .as("nothing merged").isZero();
            }
            sims.clearFaults();
            assertThat(sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid)).as("never merged")
                    .isNotEqualTo("merged");

            for (var id : ids) {
                var readmitted = otto.post("/ops/operations/" + id + "/retrigger", null);
                assertThat(readmitted.status()).as(readmitted.toString()).isEqualTo(200);
            }
            awaitWaiting(alice, ids);
            var next = otto.batchRound("global");
            assertThat(next.code()).as("the partition's slot is free: " + next).isEqualTo("CLAIMED");
            assertThat(next.data().path("batchId").asLong()).isNotEqualTo(batchId);
            var views = awaitAtRest(alice, ids, Duration.ofSeconds(60));
            assertThat(views).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
            var problems = new ArrayList<String>();
            views.forEach(v -> problems.addAll(Invariants.deliveredInABatch(sims, v)));
            assertThat(problems).isEmpty();
            assertThat(Invariants.batchMembershipProblems(cluster.dataSource())).isEmpty();
        } finally {
            sims.clearFaults();
            sims.gitlab().forceBranchPipeline(SimulatorHost.PROJECT, branch, PipelineOutcome.AUTO);
        }
    }

    // ------------------------------------------------------------------ helpers

    static String submit(ApiClient client, String target, String subject) {
        var response = client.submit(target, subject, "batch test");
        assertThat(response.status()).as(response.toString()).isEqualTo(202);
        return response.data().path("operationId").asString();
    }

    static void awaitWaiting(ApiClient client, List<String> ids) {
        Poll.until("approved and waiting for a batch round", Duration.ofSeconds(30), Duration.ofMillis(300),
                () -> ids.stream().map(client::request).toList(),
                vs -> vs.stream().allMatch(v -> "BATCH_WAITING".equals(v.status())));
    }

    static List<RequestView> awaitAtRest(ApiClient client, List<String> ids, Duration timeout) {
        return Poll.until("every request at rest", timeout, Duration.ofMillis(300),
                () -> ids.stream().map(client::request).toList(), vs -> vs.stream().allMatch(RequestView::isAtRest));
    }

    static JsonNode batch(long id) {
        return batch(id, cluster.client(cluster.liveInstances().getFirst().name(), "otto"));
    }

    static JsonNode batch(long id, ApiClient otto) {
        for (var batch : otto.batches(100)) {
            if (batch.path("id").asLong() == id) {
                return batch;
            }
        }
        throw new AssertionError("no batch " + id + " in GET /ops/batches");
    }

    static List<String> texts(JsonNode array) {
        var list = new ArrayList<String>();
        array.forEach(n -> list.add(n.asString()));
        return list;
    }
}
