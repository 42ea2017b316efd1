package io.changeflow.reliability;

import static io.changeflow.reliability.support.Pauses.pause;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.reliability.support.Callbacks;
import io.changeflow.reliability.support.Prometheus;
import io.changeflow.reliability.support.Sizes;
import io.changeflow.reliability.support.Webhooks;
import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Concurrency: what happens exactly once when many identical things arrive at the same moment on two
 * instances.
 *
 * <ol>
 *   <li>{@code reliability.concurrency.parallel} (64) identical submissions (same operationId, same
 *       payload), half to each instance, released together, {@code reliability.concurrency.trials} times:
 *       one ACCEPTED, every other answer DUPLICATE_SUBMIT (a client retries IDEMPOTENCY_IN_FLIGHT, as the
 *       API says), one operation row, one binding, one submission in the history.</li>
 *   <li>Signed approval callbacks racing: per request, exact replays of one delivery, re-signed copies
 *       of it, and a second decision with another requestId, all at once on both instances: one
 *       PROCESSED, one decision in the history, the next step launched once (one merge request).</li>
 *   <li>Deploy callbacks (replays, copies without operation IDs, a failed status) racing operator
 *       reconciliation runs on both instances: every request flips to VALIDATED once in both history
 *       layers, the "advanced" counts of all racing answers add up to the number of requests, and
 *       {@code changeflow_requests_validated_total} (summed over the instances) grows by exactly that.</li>
 * </ol>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConcurrencyReliabilityTest {

    static final int TRIALS = Sizes.of("reliability.concurrency.trials", 30);
    static final int PARALLEL = Sizes.of("reliability.concurrency.parallel", 64);
    static final int CALLBACK_TRIALS = Sizes.of("reliability.concurrency.callbackTrials", 8);
    static final String VALIDATED_METRIC = "changeflow_requests_validated_total";

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withPlainTargets(CALLBACK_TRIALS)
            // the race below is between the callbacks and the operators' runs: the recurring job stays out of it
            .withInstanceProperty("changeflow.workflow.reconciliation.every", "1h")
            .withInstanceProperty("changeflow.workflow.reconciliation.min-age", "1s")
            .withDynamicConfig("workflow.approveFirst", "true")
            .withInstances("a", "b");

    static final ExecutorService POOL = Executors.newVirtualThreadPerTaskExecutor();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    @Order(1)
    void identicalSubmissionsRacingOnTwoInstancesMakeExactlyOneOperation() throws Exception {
        var sims = cluster.sims();
        sims.approval().mode(ApprovalSimulator.Mode.MANUAL);
        var ds = cluster.dataSource();
        var clients = List.of(cluster.client("a", "alice"), cluster.client("b", "alice"));
        var firstAnswers = new ConcurrentHashMap<String, Integer>();
        var latencies = Collections.synchronizedList(new ArrayList<Duration>());
        var bursts = new ArrayList<Duration>();
        var retries = new java.util.concurrent.atomic.AtomicLong();
        var problems = new ArrayList<String>();
        var started = System.nanoTime();
        for (int trial = 1; trial <= TRIALS; trial++) {
            var op = UUID.randomUUID().toString();
            var subject = String.format("svc-c-%04d", trial);
            var body = new LinkedHashMap<String, Object>();
            body.put("operationId", op);
            body.put("targetKey", "db-prod-readonly");
            body.put("subjectId", subject);
            body.put("reason", "concurrency trial " + trial);
            var gate = new CountDownLatch(1);
            var futures = new ArrayList<Future<ApiResponse>>();
            for (int i = 0; i < PARALLEL; i++) {
                var client = clients.get(i % 2);
                futures.add(POOL.submit(() -> {
                    gate.await();
                    var response = client.post("/api/requests", body);
                    latencies.add(response.latency());
                    firstAnswers.merge(response.status() + " " + response.code(), 1, Integer::sum);
                    // the API's advice for IDEMPOTENCY_IN_FLIGHT: retry shortly (as the web app does)
                    for (int attempt = 0; attempt < 100 && "IDEMPOTENCY_IN_FLIGHT".equals(response.code()); attempt++) {
                        Thread.sleep(50);
                        retries.incrementAndGet();
                        response = client.post("/api/requests", body);
                    }
                    return response;
                }));
            }
            var burstStart = System.nanoTime();
            gate.countDown();
            var answers = new TreeMap<String, Integer>();
            for (var future : futures) {
                var response = future.get(60, TimeUnit.SECONDS);
                answers.merge(response.status() + " " + response.code(), 1, Integer::sum);
                if (response.is2xx() && !op.equals(response.data().path("operationId").asString(""))) {
                    problems.add("trial " + trial + ": answer for another operation: " + response);
                }
                if (response.is2xx() && !("/api/requests/" + op).equals(response.header("Location"))) {
                    problems.add("trial " + trial + ": Location " + response.header("Location"));
                }
            }
            bursts.add(Duration.ofNanos(System.nanoTime() - burstStart));
            var expected = Map.of("202 ACCEPTED", 1, "202 DUPLICATE_SUBMIT", PARALLEL - 1);
            if (!answers.equals(new TreeMap<>(expected))) {
                problems.add("trial " + trial + ": answers " + answers + ", expected " + expected);
            }
            var operations = Sql.number(ds, "select count(*) from operation where id = ?", op);
            var bindings = Sql.number(ds, "select count(*) from binding where operation_id = ?", op);
            var submissions = Sql.number(ds, "select count(*) from operation_history where operation_id = ?"
                    + " and event like 'SUBMITTED%'", op);
            if (operations != 1 || bindings != 1 || submissions != 1) {
                problems.add("trial " + trial + ": " + operations + " operations, " + bindings + " bindings, "
                        + submissions + " submissions in the history (expected 1 each)");
            }
        }
        // these requests wait for an approver who never comes: forget their tickets so the later parts stay unaffected
        sims.approval().reset();
        var total = Sql.number(ds, "select count(*) from operation where subject_id like 'svc-c-%'");
        if (total != TRIALS) {
            problems.add(total + " operations for " + TRIALS + " trials");
        }
        Figures.record("concurrency: " + PARALLEL + " identical submissions x " + TRIALS + " trials (two instances)",
                "first answers (before retrying IDEMPOTENCY_IN_FLIGHT):\n" + Figures.table(new TreeMap<>(firstAnswers))
                        + "retries of IDEMPOTENCY_IN_FLIGHT: " + retries.get() + "\n"
                        + "operations in the database: " + total + " for " + TRIALS + " trials; problems: " + problems.size() + "\n"
                        + "submission latency: " + Figures.latencies(latencies) + "\n"
                        + "burst until the last answer: " + Figures.latencies(bursts) + "\n"
                        + "suite part took " + (System.nanoTime() - started) / 1_000_000 + " ms");
        assertThat(problems).isEmpty();
    }

    @Test
    @Order(2)
    void racingSignedApprovalCallbacksDecideOnceAndLaunchTheNextStepOnce() throws Exception {
        var sims = cluster.sims();
        sims.approval().mode(ApprovalSimulator.Mode.MANUAL);
        var ds = cluster.dataSource();
        var instances = List.of(cluster.instance("a"), cluster.instance("b"));
        var alice = cluster.client("a", "alice");
        var validatedBefore = Prometheus.sum(instances, VALIDATED_METRIC);
        var ids = new ArrayList<String>();
        for (int i = 1; i <= CALLBACK_TRIALS; i++) {
            var response = alice.submit(InstanceSettings.plainTargetKey(i), String.format("svc-appr-%02d", i), "approval race");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            ids.add(response.data().path("operationId").asString());
        }
        Poll.until("every request waiting for the approver", ChangeflowCluster.defaultTimeout(), Duration.ofMillis(200),
                () -> ids.stream().map(alice::request).toList(),
                views -> views.stream().allMatch(v -> "APPROVAL_SENT".equals(v.status())
                        && sims.approval().byOperationId(v.operationId()).isPresent()));

        var answers = new TreeMap<String, Integer>();
        var problems = new ArrayList<String>();
        var secret = sims.approvalSecret();
        var rejected = new ArrayList<String>();
        for (int i = 0; i < ids.size(); i++) {
            var op = ids.get(i);
            var ext = sims.approval().byOperationId(op).orElseThrow().form().ext();
            var second = i % 3 == 2 ? "REJECTED" : "APPROVED";
            var first = approval("rq1-" + UUID.randomUUID(), op, "APPROVED", ext);
            var other = approval("rq2-" + UUID.randomUUID(), op, second, ext);
            var replayed = Webhooks.headers(secret, Webhooks.newId(), first);
            var calls = new ArrayList<Callable<ApiResponse>>();
            for (int k = 0; k < 6; k++) {
                var target = instances.get(k % 2);
                calls.add(() -> Callbacks.post(target, Callbacks.APPROVAL, first, replayed));
            }
            for (int k = 0; k < 5; k++) {
                var target = instances.get(k % 2);
                calls.add(() -> Callbacks.signedPost(target, Callbacks.APPROVAL, secret, first));
                calls.add(() -> Callbacks.signedPost(target, Callbacks.APPROVAL, secret, other));
            }
            var results = race(calls);
            var processed = results.stream().filter(r -> "PROCESSED".equals(r.code())).count();
            results.forEach(r -> answers.merge(r.status() + " " + r.code(), 1, Integer::sum));
            if (processed != 1 || results.stream().anyMatch(r -> r.status() != 200)) {
                problems.add(op + ": " + processed + " PROCESSED of " + results.size() + " racing deliveries: "
                        + results.stream().map(r -> r.status() + " " + r.code()).toList());
            }
            var decisions = Sql.number(ds, "select count(*) from operation_history where operation_id = ? and event in"
                    + " ('APPROVAL_GRANTED_CREATE', 'APPROVAL_GRANTED_BATCH', 'APPROVAL_GRANTED_MERGE', 'APPROVAL_REJECTED',"
                    + " 'APPROVAL_WITHDRAWN')", op);
            if (decisions != 1) {
                problems.add(op + ": " + decisions + " decisions in the history, expected 1");
            }
            if ("REJECTED".equals(second)) {
                rejected.add(op);
            }
        }

        // the simulator's own tickets stay undecided (the decisions above bypassed it): forget them
        sims.approval().reset();
        // the next step ran once: one merge request per approved request, none for a rejected one
        var views = Poll.until("every request at rest after the approval race", Duration.ofSeconds(180), Duration.ofMillis(500),
                () -> ids.stream().map(alice::request).toList(), all -> all.stream().allMatch(RequestView::isAtRest));
        var outcomes = new TreeMap<String, Integer>();
        var validated = 0;
        for (var view : views) {
            outcomes.merge(view.outcome(), 1, Integer::sum);
            var mergeRequests = sims.mergeRequestsFrom("changeflow/" + view.operationId()).size();
            if ("VALIDATED".equals(view.status())) {
                validated++;
                problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, view));
            } else if ("REJECTED".equals(view.status())) {
                if (mergeRequests != 0) {
                    problems.add(view + ": rejected, but " + mergeRequests + " merge requests");
                }
            } else if (mergeRequests > 1) {
                problems.add(view + ": " + mergeRequests + " merge requests");
            }
        }
        problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
        var validatedDelta = Prometheus.sum(instances, VALIDATED_METRIC) - validatedBefore;
        if (validatedDelta != validated) {
            problems.add(VALIDATED_METRIC + " grew by " + validatedDelta + " for " + validated + " validated requests");
        }
        Figures.record("concurrency: racing signed approval callbacks, " + ids.size() + " requests x 16 deliveries",
                "answers (6 exact replays + 5 re-signed copies of one decision + 5 of a second decision per request):\n"
                        + Figures.table(answers) + "outcomes: " + outcomes + " (" + rejected.size()
                        + " had a racing REJECTED)\nvalidated metric delta " + validatedDelta + " for " + validated
                        + " VALIDATED; problems: " + problems.size());
        assertThat(problems).isEmpty();
    }

    @Test
    @Order(3)
    void deployCallbacksRacingReconciliationRunsFlipEachRequestOnce() throws Exception {
        var sims = cluster.sims();
        var ds = cluster.dataSource();
        var instances = List.of(cluster.instance("a"), cluster.instance("b"));
        sims.approval().mode(ApprovalSimulator.Mode.AUTO);
        sims.deploy().lostShare(1.0);
        var alice = cluster.client("b", "alice");
        var otto = List.of(cluster.client("a", "otto"), cluster.client("b", "otto"));
        var ids = new ArrayList<String>();
        for (int i = 1; i <= CALLBACK_TRIALS; i++) {
            var response = alice.submit(InstanceSettings.plainTargetKey(i), String.format("svc-dep-%02d", i), "deploy race");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            ids.add(response.data().path("operationId").asString());
        }
        var merged = untilAllMerged(ids, otto.getFirst());
        sims.deploy().lostShare(0.0);
        // reconciliation only looks at requests merged at least min-age (1 s) ago
        Poll.untilTrue("every request merged more than 2 s ago", Duration.ofSeconds(30), () -> Sql.number(ds,
                "select count(*) from binding where status = 'MERGED' and updated_at < now(3) - interval 2 second"
                        + " and subject_id like 'svc-dep-%'") == ids.size());
        var before = Prometheus.sum(instances, VALIDATED_METRIC);
        var deployedBefore = Sql.number(ds, "select count(*) from operation_history where event = 'DEPLOYED'");

        var secret = sims.deploySecret();
        var calls = new ArrayList<Callable<ApiResponse>>();
        for (var view : merged) {
            var withIds = Callbacks.json(Map.of("projectId", SimulatorHost.PROJECT, "mrIid", view.mergeRequestIid(),
                    "status", "success", "operationIds", List.of(view.operationId())));
            var withoutIds = Callbacks.json(Map.of("projectId", SimulatorHost.PROJECT, "mrIid", view.mergeRequestIid(),
                    "status", "SUCCESS"));
            var failed = Callbacks.json(Map.of("projectId", SimulatorHost.PROJECT, "mrIid", view.mergeRequestIid(),
                    "status", "failed"));
            var replayed = Webhooks.headers(secret, Webhooks.newId(), withIds);
            for (int k = 0; k < 3; k++) {
                var target = instances.get(k % 2);
                calls.add(() -> Callbacks.post(target, Callbacks.DEPLOY, withIds, replayed));
            }
            calls.add(() -> Callbacks.signedPost(instances.get(1), Callbacks.DEPLOY, secret, withoutIds));
            calls.add(() -> Callbacks.signedPost(instances.get(0), Callbacks.DEPLOY, secret, failed));
        }
        for (int k = 0; k < 8; k++) {
            var operator = otto.get(k % 2);
            calls.add(() -> operator.post("/ops/reconciliation-runs?limit=500", null));
        }
        Collections.shuffle(calls, new java.util.Random(Sizes.seed()));
        var results = race(calls);

        var answers = new TreeMap<String, Integer>();
        var advancedByCallbacks = 0;
        var advancedByRuns = 0;
        var problems = new ArrayList<String>();
        for (var r : results) {
            answers.merge(r.status() + " " + r.code(), 1, Integer::sum);
            if (r.status() != 200) {
                problems.add("racing answer " + r);
            } else if ("RECONCILED".equals(r.code())) {
                advancedByRuns += r.data().path("advanced").asInt();
            } else {
                advancedByCallbacks += r.data().path("advanced").asInt();
            }
        }
        var views = Poll.until("every request VALIDATED", Duration.ofSeconds(60), Duration.ofMillis(300),
                () -> ids.stream().map(alice::request).toList(),
                all -> all.stream().allMatch(v -> "VALIDATED".equals(v.status())));
        for (var view : views) {
            var op = view.operationId();
            var deployed = Sql.number(ds, "select count(*) from operation_history where operation_id = ? and event = 'DEPLOYED'", op);
            var flips = Sql.number(ds, "select count(*) from binding_history where operation_id = ? and to_status = 'VALIDATED'"
                    + " and (from_status is null or from_status <> 'VALIDATED')", op);
            if (deployed != 1 || flips != 1) {
                problems.add(op + ": " + deployed + " DEPLOYED history rows and " + flips + " flips to VALIDATED, expected 1 each");
            }
            problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, view));
        }
        if (advancedByCallbacks + advancedByRuns != ids.size()) {
            problems.add("the racing answers report " + advancedByCallbacks + " + " + advancedByRuns + " advances for "
                    + ids.size() + " requests");
        }
        var delta = Prometheus.sum(instances, VALIDATED_METRIC) - before;
        var deployedRows = Sql.number(ds, "select count(*) from operation_history where event = 'DEPLOYED'") - deployedBefore;
        if (deployedRows != ids.size() || delta != ids.size()) {
            problems.add(VALIDATED_METRIC + " grew by " + delta + " and " + deployedRows + " DEPLOYED history rows were"
                    + " written for " + ids.size() + " requests");
        }
        Figures.record("concurrency: deploy callbacks racing reconciliation runs, " + ids.size() + " merged requests",
                results.size() + " racing calls (per request: 3 replays of one delivery, a copy without operation IDs,"
                        + " a failed status; 8 reconciliation runs on two instances):\n" + Figures.table(answers)
                        + "advanced by callbacks " + advancedByCallbacks + ", by reconciliation runs " + advancedByRuns
                        + "; " + VALIDATED_METRIC + " delta " + delta + "; problems: " + problems.size());
        assertThat(problems).isEmpty();
    }

    /** Waits until every request is MERGED, re-triggering the ones that stopped with KEEP_WAITING (the runbook). */
    private static List<RequestView> untilAllMerged(List<String> ids, ApiClient operator) {
        var deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
        while (true) {
            var views = ids.stream().map(operator::request).toList();
            if (views.stream().allMatch(v -> "MERGED".equals(v.status()))) {
                return views;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not all merged: " + views);
            }
            for (var view : views) {
                if (RequestView.FAILED.contains(view.status()) && "KEEP_WAITING".equals(view.hint())) {
                    operator.post("/ops/operations/" + view.operationId() + "/retrigger", null);
                }
            }
            pause(Duration.ofSeconds(2));
        }
    }

    private static byte[] approval(String requestId, String op, String result, Map<String, String> ext) {
        var body = new LinkedHashMap<String, Object>();
        body.put("requestId", requestId);
        body.put("operationId", op);
        body.put("result", result);
        body.put("ext", ext);
        return Callbacks.json(body);
    }

    /** Runs every call at once (released by one gate) and answers their results in order. */
    static <T> List<T> race(List<Callable<T>> calls) throws Exception {
        var gate = new CountDownLatch(1);
        var futures = new ArrayList<Future<T>>();
        for (var call : calls) {
            futures.add(POOL.submit(() -> {
                gate.await();
                return call.call();
            }));
        }
        gate.countDown();
        var results = new ArrayList<T>();
        for (var future : futures) {
            results.add(future.get(60, TimeUnit.SECONDS));
        }
        return results;
    }

}
