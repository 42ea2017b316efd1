package io.changeflow.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.reliability.support.Sizes;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults: mixed traffic on two instances (plain targets with a grant file of their own, the shared
 * {@code db-prod-readonly} file, the batchable targets; both step orders, switched through the dynamic
 * file while traffic flows) with a fifth of the calls to GitLab and to the approval system failing
 * (10% answered 500/503 without effect, 10% applied with the response lost), 30 ms latency on every
 * call, and callbacks of the approval system and the deploy pipeline duplicated, late or lost.
 *
 * <p>When the traffic has stopped and the run has settled: every accepted request still exists and is
 * visible (nothing lost), each is at rest (terminal, failed with a hint, KEEP_WAITING) or in one of the
 * explicit waits on an outside party the design names (APPROVAL_SENT: the approver; MERGED: the deploy
 * report or reconciliation; BATCH_WAITING: the next round), none is "processing" (nothing stuck), and
 * nothing happened twice (one merge request per request, merged at most once, each bot approved at most
 * once and never tried again after approving, a grant line at most once, no request in two batches).
 * The outcome table is recorded per final state and hint, then again after the runbook's recovery
 * (faults off, re-trigger, reconciliation run).
 *
 * <p>CI: {@code reliability.faults.requests} (16) requests, {@code changeflow.workflow.transient-retries=3}.
 * Long run: {@code -Dreliability.faults.minutes=30} of traffic (one request every 3 s) with the app's
 * default retries ({@code -Dreliability.faults.transientRetries=8}) and {@code -Dreliability.faults.settleSeconds=1800}.
 */
class FaultsReliabilityTest {

    static final int REQUESTS = Sizes.of("reliability.faults.requests", 16);
    static final int MINUTES = Sizes.of("reliability.faults.minutes", 0);
    static final int SETTLE_SECONDS = Sizes.of("reliability.faults.settleSeconds", 240);
    static final int TRANSIENT_RETRIES = Sizes.of("reliability.faults.transientRetries", 3);
    static final int PLAIN_TARGETS = 12;
    static final Set<String> EXPLICIT_WAITS = Set.of("APPROVAL_SENT", "MERGED", "BATCH_WAITING");
    static final List<String> BATCHABLE = List.of("dashboards-viewer", "vpn-staging");

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withPlainTargets(PLAIN_TARGETS)
            .withInstanceProperty("changeflow.workflow.transient-retries", TRANSIENT_RETRIES)
            .withInstances("a", "b");

    /** One submitted request: what kind of traffic it was. */
    record Sent(String operationId, String kind, String targetKey) {}

    @Test
    void mixedTrafficUnderInjectedFaultsSettlesWithNothingLostStuckOrDoneTwice() {
        var seed = Sizes.seed();
        var random = new Random(seed);
        var sims = cluster.sims();
        sims.faults().reseed(seed);
        sims.faults(Faults.GITLAB, new FaultSettings(30, 0.10, 0.10, 0, 0, 0, 0));
        sims.faults(Faults.APPROVAL, new FaultSettings(30, 0.10, 0.10, 0.20, 0.20, 0.05, 3000));
        sims.faults(Faults.DEPLOY, new FaultSettings(0, 0, 0, 0.20, 0.20, 0.10, 3000));

        var sent = new ArrayList<Sent>();
        var lastOnTarget = new HashMap<String, String>();
        var reader = cluster.client("a", "otto");
        var started = System.nanoTime();
        var trafficEnd = MINUTES > 0 ? started + Duration.ofMinutes(MINUTES).toNanos() : Long.MAX_VALUE;
        var approveFirst = false;
        for (int i = 1; MINUTES > 0 ? System.nanoTime() < trafficEnd : i <= REQUESTS; i++) {
            if (i % 4 == 1) {
                approveFirst = random.nextBoolean();
                cluster.writeDynamicConfig(Map.of("workflow.approveFirst", Boolean.toString(approveFirst)));
            }
            var roll = random.nextInt(100);
            String kind;
            String target;
            if (roll < 35) {
                kind = "batchable";
                target = BATCHABLE.get(random.nextInt(BATCHABLE.size()));
            } else if (roll < 45) {
                kind = "shared file";
                target = "db-prod-readonly";
            } else {
                kind = "own file";
                target = freePlainTarget(random, lastOnTarget, reader);
                if (target == null) {
                    kind = "batchable";
                    target = BATCHABLE.get(random.nextInt(BATCHABLE.size()));
                }
            }
            var via = cluster.liveInstances().get(random.nextInt(2));
            var response = via.client("alice").submit(target, String.format("svc-f-%05d", i), "faults " + kind);
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            var op = response.data().path("operationId").asString();
            sent.add(new Sent(op, kind, target));
            lastOnTarget.put(target, op);
            pause(MINUTES > 0 ? 3000 : 250 + random.nextInt(250));
        }
        var trafficMs = (System.nanoTime() - started) / 1_000_000;

        // settle: every request at rest or in an explicit wait on an outside party
        var settleStart = System.nanoTime();
        var ids = sent.stream().map(Sent::operationId).toList();
        var views = Poll.tryUntil(Duration.ofSeconds(SETTLE_SECONDS), Duration.ofSeconds(2),
                () -> ids.stream().map(reader::request).toList(),
                all -> all.stream().allMatch(FaultsReliabilityTest::settled))
                .orElseGet(() -> ids.stream().map(reader::request).toList());
        var settleMs = (System.nanoTime() - settleStart) / 1_000_000;
        var problems = new ArrayList<String>();
        for (var view : views) {
            if (!settled(view)) {
                problems.add("stuck after " + SETTLE_SECONDS + " s: " + view + " (" + view.detail() + ")");
            }
        }
        var atSettle = table(sent, views);
        sims.clearFaults();
        problems.addAll(nothingLostOrDoneTwice(sent, views));

        // the runbook, with the faults gone: re-trigger what waits with KEEP_WAITING, run reconciliation
        var recoveryStart = System.nanoTime();
        var retriggers = 0;
        for (int round = 1; round <= 4; round++) {
            var current = ids.stream().map(reader::request).toList();
            var waiting = current.stream().filter(v -> RequestView.FAILED.contains(v.status())
                    && "KEEP_WAITING".equals(v.hint())).toList();
            if (waiting.isEmpty()) {
                break;
            }
            for (var view : waiting) {
                var answer = reader.post("/ops/operations/" + view.operationId() + "/retrigger", null);
                if (answer.status() == 200) {
                    retriggers++;
                } else {
                    problems.add("re-trigger of " + view + " refused: " + answer);
                }
            }
            Poll.tryUntil(Duration.ofSeconds(90), Duration.ofSeconds(1), () -> ids.stream().map(reader::request).toList(),
                    all -> all.stream().allMatch(v -> v.isAtRest() || EXPLICIT_WAITS.contains(v.status())));
        }
        Poll.tryUntil(Duration.ofSeconds(30), Duration.ofSeconds(1),
                () -> Sql.number(cluster.dataSource(), "select count(*) from binding where status = 'MERGED'"
                        + " and updated_at > now(3) - interval 21 second"), n -> n == 0);
        var reconciled = reader.post("/ops/reconciliation-runs", null);
        var finals = Poll.tryUntil(Duration.ofSeconds(60), Duration.ofSeconds(1), () -> ids.stream().map(reader::request).toList(),
                all -> all.stream().allMatch(v -> v.isAtRest() || EXPLICIT_WAITS.contains(v.status())))
                .orElseGet(() -> ids.stream().map(reader::request).toList());
        var afterRecovery = table(sent, finals);
        problems.addAll(nothingLostOrDoneTwice(sent, finals));
        var lostApprovalCallbacks = finals.stream().filter(v -> "APPROVAL_SENT".equals(v.status())
                && sims.approval().byOperationId(v.operationId()).map(t -> t.status().name()).orElse("").equals("APPROVED"))
                .count();

        Figures.record("faults: " + sent.size() + " requests of mixed traffic, 20% GitLab and approval errors (seed " + seed
                        + ", transient-retries " + TRANSIENT_RETRIES + ")",
                "faults: GitLab and approval system 10% 500/503 + 10% lost responses + 30 ms latency; approval callbacks"
                        + " 20% duplicated, 20% 3 s late, 5% lost; deploy callbacks 20% duplicated, 20% late, 10% lost\n"
                        + "traffic: " + kinds(sent) + " over " + trafficMs + " ms; settled " + settleMs + " ms after the traffic\n"
                        + "outcome when settled (kind | order | status / step / hint):\n" + Figures.table(atSettle)
                        + "after the runbook (" + retriggers + " re-triggers, reconciliation run: " + reconciled.code() + " "
                        + reconciled.data() + ", " + (System.nanoTime() - recoveryStart) / 1_000_000 + " ms):\n"
                        + Figures.table(afterRecovery)
                        + "waiting for the approver although the approval system approved (callback lost): " + lostApprovalCallbacks + "\n"
                        + "GitLab calls: " + sims.gitlabCalls().all().size() + "; merges: " + sims.mergeLog().merges().size()
                        + "; problems: " + problems.size() + " " + problems);
        assertThat(problems).isEmpty();
    }

    /** At rest, or in an explicit wait on an outside party. */
    static boolean settled(RequestView view) {
        return view.isAtRest() || EXPLICIT_WAITS.contains(view.status());
    }

    private static List<String> nothingLostOrDoneTwice(List<Sent> sent, List<RequestView> views) {
        var sims = cluster.sims();
        var ds = cluster.dataSource();
        var problems = new ArrayList<String>();
        for (int i = 0; i < sent.size(); i++) {
            var s = sent.get(i);
            var view = views.get(i);
            var op = s.operationId();
            if (Sql.number(ds, "select count(*) from operation where id = ?", op) != 1) {
                problems.add("LOST: " + op + " has no operation row");
            }
            var merges = sims.mergeLog().mergesOf(op);
            var lines = sims.grantLinesOnMain(Invariants.grantFileOf(s.targetKey()), op);
            if (merges > 1 || lines > 1) {
                problems.add(view + ": merged " + merges + " times, " + lines + " grant lines");
            }
            if (!"batchable".equals(s.kind())) {
                var own = sims.mergeRequestsFrom("changeflow/" + op).size();
                if (own > 1) {
                    problems.add(view + ": " + own + " merge requests");
                }
                if ("VALIDATED".equals(view.status())) {
                    problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, view));
                }
            } else if ("VALIDATED".equals(view.status())) {
                problems.addAll(Invariants.deliveredInABatch(sims, view));
            }
            if (merges == 0 && ("VALIDATED".equals(view.status()) || "MERGED".equals(view.status()))) {
                problems.add(view + ": says merged, but GitLab merged nothing for it");
            }
        }
        problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
        problems.addAll(Invariants.batchMembershipProblems(ds));
        return problems.stream().distinct().toList();
    }

    private static Map<String, Integer> table(List<Sent> sent, List<RequestView> views) {
        var table = new TreeMap<String, Integer>();
        for (int i = 0; i < sent.size(); i++) {
            var view = views.get(i);
            var order = "APPROVE_FIRST".equals(view.stepOrder()) ? "approve-first" : "create-first";
            table.merge(String.format("%-11s | %-13s | %s", sent.get(i).kind(), order, view.outcome()), 1, Integer::sum);
        }
        return table;
    }

    private static String kinds(List<Sent> sent) {
        var kinds = new TreeMap<String, Integer>();
        sent.forEach(s -> kinds.merge(s.kind(), 1, Integer::sum));
        return kinds.toString();
    }

    /** A plain target whose previous request (if any) is terminal or failed: no two open merge requests edit one file. */
    private static String freePlainTarget(Random random, Map<String, String> lastOnTarget, ApiClient reader) {
        var start = random.nextInt(PLAIN_TARGETS);
        for (int k = 0; k < PLAIN_TARGETS; k++) {
            var target = InstanceSettings.plainTargetKey(1 + (start + k) % PLAIN_TARGETS);
            var previous = lastOnTarget.get(target);
            if (previous == null) {
                return target;
            }
            var view = reader.request(previous);
            if (view.isTerminal() || "MERGED".equals(view.status())) {
                return target;
            }
        }
        return null;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
