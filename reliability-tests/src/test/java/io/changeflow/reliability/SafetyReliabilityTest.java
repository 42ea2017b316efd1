package io.changeflow.reliability;

import static io.changeflow.reliability.support.Pauses.pause;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.reliability.support.InjectedFaults;
import io.changeflow.reliability.support.SafetyProperties;
import io.changeflow.reliability.support.Sizes;
import io.changeflow.sandbox.deploy.DeployPipelineSimulator.SentReport;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.gitlab.GitLabSimulator.MergeRecord;
import io.changeflow.sandbox.gitlab.GitLabSimulator.OpenMergeRequest;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Safety (issue 13): random faults plus operator actions at random moments never merge a head whose pipeline
 * did not pass, never leave two open merge requests for one request, and never make a request VALIDATED
 * without a deploy report naming it or an operator's confirm.
 *
 * <p>Two instances on the packaged jar, mixed traffic (plain targets with a merge request of their own, the
 * batchable targets; both step orders); GitLab and the approval system fail 5% of calls (500/503 without
 * effect) and lose 5% of responses (applied); approval and deploy callbacks are duplicated, late or lost. A
 * share of the requests has a pipeline that fails: a subject carrying the simulator's {@code fail_pipeline}
 * marker (fails on every run, also a batch's), or a branch forced to fail before the request is submitted
 * (some of those are "fixed" at a random moment later: from then on their pipelines pass). Meanwhile an
 * operator acts at random moments: on a random request, one of the actions {@code GET /ops/operations/{id}}
 * offers ({@code allowedActions}: re-trigger, close, confirm deployed, mark deploy failed), or a
 * reconciliation run, a batch round, or settling a running or blocked batch. Every random choice derives from
 * {@link Sizes#seed()}.
 *
 * <p>The properties are checked against the simulators' own records ({@link SafetyProperties}): the GitLab
 * simulator's merge records (the merged head and its pipeline's status at the moment of the merge), its open
 * merge requests by source branch, the deploy simulator's sent reports and the operator's own action log;
 * (b) and (c) at every sample during the run and at the end, (a) over every merge.
 *
 * <p>CI: {@code reliability.safety.requests} (12) requests, then {@code reliability.safety.seconds} (45) of
 * operator actions, then up to {@code reliability.safety.settleSeconds} (120) of sampling while the requests
 * come to rest. Long run: {@code -Dreliability.safety.requests=150 -Dreliability.safety.seconds=1200
 * -Dreliability.safety.settleSeconds=600} (docs/reliability.md).
 */
class SafetyReliabilityTest {

    static final int REQUESTS = Sizes.of("reliability.safety.requests", 12);
    static final int ACTION_SECONDS = Sizes.of("reliability.safety.seconds", 45);
    static final int SETTLE_SECONDS = Sizes.of("reliability.safety.settleSeconds", 120);
    static final int PLAIN_TARGETS = 8;
    static final List<String> BATCHABLE = List.of("dashboards-viewer", "vpn-staging");
    /** The faults of the run (the figures it records spell them out: keep the two in step). */
    static final InjectedFaults FAULTS = new InjectedFaults(new FaultSettings(20, 0.05, 0.05, 0, 0, 0, 0),
            new FaultSettings(20, 0.05, 0.05, 0.20, 0.20, 0.05, 3000), new FaultSettings(0, 0, 0, 0.20, 0.20, 0.15, 3000));
    static final String OPERATOR = "otto";

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withPlainTargets(PLAIN_TARGETS)
            .withInstanceProperty("changeflow.workflow.transient-retries", 3)
            .withInstanceProperty("changeflow.workflow.transient-deadline", "2m")
            .withInstanceProperty("changeflow.workflow.transient-retry.every", "5s")
            .withInstanceProperty("changeflow.workflow.pipeline.pending-deadline", "2m")
            .withInstanceProperty("changeflow.workflow.approval-check.after", "15s")
            .withInstanceProperty("changeflow.workflow.approval-check.every", "5s")
            // short, so that lost deploy reports reach DEPLOY_UNCONFIRMED (confirm / mark failed) inside the run
            .withInstanceProperty("changeflow.workflow.deploy-deadline", "30s")
            .withInstanceProperty("changeflow.workflow.deploy-deadline-every", "5s")
            .withInstances("a", "b");

    /** One submitted request and how its pipeline was set up to behave. */
    record Sent(String operationId, String kind, String pipeline) {}

    /** What the run saw: operator actions by kind and answer, samples, violations (deduplicated, in order found). */
    static final class Run {
        final Map<String, Integer> actions = new TreeMap<>();
        final Set<String> confirmedByHand = ConcurrentHashMap.newKeySet();
        final Set<String> violations = new LinkedHashSet<>();
        int samples;

        void action(String kind, ApiResponse answer) {
            var code = answer.code();
            actions.merge(kind + " -> " + answer.status() + (code == null || code.isBlank() ? "" : " " + code), 1, Integer::sum);
        }

        int actionCount() {
            return actions.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    @Test
    void randomFaultsAndOperatorActionsNeverMergeAFailedHeadNorOpenTwoMergeRequestsNorValidateWithoutAReport() {
        var seed = Sizes.seed();
        var random = new Random(seed);
        var sims = FAULTS.injectInto(cluster, seed);
        var run = new Run();
        var sent = new ArrayList<Sent>();
        var forcedFailing = new ArrayList<String>();
        var started = System.nanoTime();

        // traffic, with operator actions in between
        for (int i = 1; i <= REQUESTS; i++) {
            if (i % 4 == 1) {
                cluster.writeDynamicConfig(Map.of("workflow.approveFirst", Boolean.toString(random.nextBoolean())));
            }
            var batchable = random.nextInt(100) < 35;
            var target = batchable ? BATCHABLE.get(random.nextInt(BATCHABLE.size()))
                    : InstanceSettings.plainTargetKey(1 + random.nextInt(PLAIN_TARGETS));
            var op = uuid(random);
            var roll = random.nextInt(100);
            String pipeline;
            var subject = String.format("svc-s-%05d", i);
            if (roll < 20) {
                pipeline = "marker";
                subject = String.format("svc-fail_pipeline-%05d", i);
            } else if (roll < 40 && !batchable) {
                pipeline = "forced to fail";
                // before the request exists: its pipelines never show success until "fixed"
                sims.gitlab().forceBranchPipeline(SimulatorHost.PROJECT, SafetyProperties.OWN_BRANCH_PREFIX + op, PipelineOutcome.FAILED);
                forcedFailing.add(op);
            } else {
                pipeline = "passes";
            }
            var via = cluster.liveInstances().get(random.nextInt(cluster.liveInstances().size()));
            var response = via.client("alice").submit(op, target, subject, "safety " + pipeline);
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            sent.add(new Sent(op, batchable ? "batchable" : "own merge request", pipeline));
            for (int k = random.nextInt(3); k > 0; k--) {
                operatorActs(random, run, sent, forcedFailing);
            }
            sample(run, sent);
            pause(200 + random.nextInt(400));
        }

        // operator actions at random moments while the requests progress
        var actionsEnd = System.nanoTime() + Duration.ofSeconds(ACTION_SECONDS).toNanos();
        while (System.nanoTime() < actionsEnd) {
            operatorActs(random, run, sent, forcedFailing);
            if (random.nextInt(3) == 0) {
                sample(run, sent);
            }
            pause(200 + random.nextInt(600));
        }

        // no more actions: sample while the requests come to rest (bounded; convergence is FaultsReliabilityTest's)
        var ids = sent.stream().map(Sent::operationId).toList();
        var reader = cluster.client("a", OPERATOR);
        Poll.tryUntil(Duration.ofSeconds(SETTLE_SECONDS), Duration.ofSeconds(2),
                () -> {
                    sample(run, sent);
                    return ids.stream().map(reader::request).toList();
                },
                all -> all.stream().allMatch(RequestView::isAtRest));
        sims.clearFaults();
        sample(run, sent);
        var merges = sims.gitlab().mergeRecords();
        run.violations.addAll(SafetyProperties.mergedWithoutPassedPipeline(merges));
        var views = ids.stream().map(reader::request).toList();
        var runMs = (System.nanoTime() - started) / 1_000_000;

        var outcomes = new TreeMap<String, Integer>();
        for (int i = 0; i < sent.size(); i++) {
            outcomes.merge(String.format("%-17s | %-14s | %s", sent.get(i).kind(), sent.get(i).pipeline(),
                    views.get(i).outcome()), 1, Integer::sum);
        }
        var mergesByOutcome = new TreeMap<String, Integer>();
        merges.forEach(m -> mergesByOutcome.merge("pipeline " + m.pipelineStatus(), 1, Integer::sum));
        Figures.record("safety: " + sent.size() + " requests, random faults and " + run.actionCount()
                        + " operator actions at random moments (seed " + seed + ")",
                "faults: GitLab and approval system 5% 500/503 + 5% lost responses + 20 ms latency; approval callbacks"
                        + " 20% duplicated, 20% 3 s late, 5% lost; deploy callbacks 20% duplicated, 20% late, 15% lost\n"
                        + "pipelines: " + count(sent, Sent::pipeline) + "; forced-failing branches fixed later: "
                        + fixed + "\n"
                        + "run: " + runMs + " ms, " + run.samples + " samples of (b) and (c)\n"
                        + "operator actions (kind -> answer):\n" + Figures.table(run.actions)
                        + "merges: " + merges.size() + " " + mergesByOutcome + "; sent deploy reports: "
                        + sims.deploy().sentReports().size() + "; lost on purpose: " + sims.deploy().lostCallbacks().size() + "\n"
                        + "outcome (kind | pipeline | status / step / hint):\n" + Figures.table(outcomes)
                        + "violations: " + run.violations.size() + " " + run.violations);
        assertThat(run.violations).as("safety violations (seed " + seed + ")").isEmpty();
    }

    /**
     * The checker flags what it must: a hand-made merge of a failed head, of a head without a pipeline, two open
     * merge requests from one request's branch, and a VALIDATED request without a report or confirm; and nothing
     * in the good cases next to them.
     */
    @Test
    void theCheckerFlagsHandMadeViolationsAndNothingElse() {
        var project = SimulatorHost.PROJECT;
        var now = Instant.parse("2026-12-01T00:00:00Z");
        var merges = List.of(
                new MergeRecord(project, 1, "changeflow/a", "sha-1", "success", 1L, now),
                new MergeRecord(project, 2, "changeflow/b", "sha-2", "failed", 2L, now),
                new MergeRecord(project, 3, "changeflow/c", "sha-3", null, null, now),
                new MergeRecord(project, 4, "changeflow/d", "sha-4", "running", 4L, now));
        assertThat(SafetyProperties.mergedWithoutPassedPipeline(merges))
                .hasSize(3)
                .anySatisfy(v -> assertThat(v).contains("!2").contains("was failed"))
                .anySatisfy(v -> assertThat(v).contains("!3").contains("did not exist"))
                .anySatisfy(v -> assertThat(v).contains("!4").contains("was running"));

        var x = "0a0a0000-0000-4000-8000-00000000000a";
        var y = "0a0a0000-0000-4000-8000-00000000000b";
        var z = "0a0a0000-0000-4000-8000-00000000000c";
        var open = List.of(
                new OpenMergeRequest(5, "changeflow/" + x, "Changeflow-Operation: " + x),
                new OpenMergeRequest(6, "changeflow/" + y, "Changeflow-Operation: " + y),
                new OpenMergeRequest(7, "changeflow/" + x, "a second one"),
                new OpenMergeRequest(8, "batch-1", "Changeflow-Operation: " + z + "\nChangeflow-Operation: " + y.toUpperCase()));
        assertThat(SafetyProperties.twoOpenMergeRequests(open)).containsExactly(
                "(b) request " + x + " has 2 open merge requests: [5, 7]",
                "(b) request " + y + " has 2 open merge requests: [6, 8]");
        assertThat(SafetyProperties.twoOpenMergeRequests(open.subList(0, 2))).isEmpty();

        var reports = List.of(new SentReport(project, 10, List.of("named"), "success", now),
                new SentReport(project, 11, List.of(), "success", now));
        var carriedBy = Map.of("named", Set.of(project + "!10"), "by-mr", Set.of(project + "!11"),
                "unreported", Set.of(project + "!12"), "confirmed", Set.of(project + "!13"));
        assertThat(SafetyProperties.validatedWithoutEvidence(List.of("named", "by-mr", "unreported", "confirmed", "never-merged"),
                reports, carriedBy, Set.of("confirmed")))
                .hasSize(2)
                .anySatisfy(v -> assertThat(v).startsWith("(c) unreported "))
                .anySatisfy(v -> assertThat(v).startsWith("(c) never-merged ").contains("no merge request"));
        // and the run fails on any of them: the assertion of the property test is on the collected violations
        assertThat(SafetyProperties.mergedWithoutPassedPipeline(merges.subList(0, 1))).isEmpty();
    }

    private static int fixed;

    /** One operator action at a random moment: on a random request (what the console offers), or a job run by hand. */
    private static void operatorActs(Random random, Run run, List<Sent> sent, List<String> forcedFailing) {
        var instances = cluster.liveInstances();
        var operator = instances.get(random.nextInt(instances.size())).client(OPERATOR);
        var roll = random.nextInt(100);
        if (roll < 60) {
            var op = sent.get(random.nextInt(sent.size())).operationId();
            var answer = operator.get("/ops/operations/" + op);
            if (answer.status() != 200) {
                run.action("GET operation", answer);
                return;
            }
            var allowed = new ArrayList<String>();
            answer.data().path("allowedActions").forEach(a -> allowed.add(a.asString()));
            if (allowed.isEmpty()) {
                run.actions.merge("(nothing offered)", 1, Integer::sum);
                return;
            }
            var action = allowed.get(random.nextInt(allowed.size()));
            var path = switch (action) {
                case "RETRIGGER" -> "retrigger";
                case "CLOSE" -> "close";
                case "CONFIRM_DEPLOYED" -> "confirm-deployed";
                case "MARK_DEPLOY_FAILED" -> "mark-deploy-failed";
                default -> null;
            };
            if (path == null) {
                run.violations.add("the console offers an action this test does not know: " + action + " for " + op);
                return;
            }
            if ("CONFIRM_DEPLOYED".equals(action)) {
                run.confirmedByHand.add(op); // before the call: its effect may come before its answer
            }
            run.action(action, operator.post("/ops/operations/" + op + "/" + path, null));
        } else if (roll < 72) {
            run.action("RECONCILE", operator.post("/ops/reconciliation-runs?limit=500", null));
        } else if (roll < 84) {
            run.action("BATCH_ROUND", operator.batchRound("global"));
        } else if (roll < 94) {
            var candidates = new ArrayList<Long>();
            operator.batches(50).forEach(b -> {
                var status = b.path("status").asString("");
                if ("RUNNING".equals(status) || "BLOCKED".equals(status)) {
                    candidates.add(b.path("id").asLong());
                }
            });
            if (candidates.isEmpty()) {
                run.actions.merge("(no batch to settle)", 1, Integer::sum);
                return;
            }
            run.action("SETTLE_BATCH", operator.settleBatch(candidates.get(random.nextInt(candidates.size()))));
        } else if (!forcedFailing.isEmpty()) {
            // someone fixes what made a branch's pipeline fail: from now on its pipelines pass (not an operator action)
            var op = forcedFailing.remove(random.nextInt(forcedFailing.size()));
            cluster.sims().gitlab().forceBranchPipeline(SimulatorHost.PROJECT, SafetyProperties.OWN_BRANCH_PREFIX + op,
                    PipelineOutcome.AUTO);
            fixed++;
        }
    }

    /** Samples (b) and (c): the statuses first, then the evidence (which can only have grown since). */
    private static void sample(Run run, List<Sent> sent) {
        run.samples++;
        var sims = cluster.sims();
        var reader = cluster.client(cluster.liveInstances().getFirst().name(), OPERATOR);
        var validated = new ArrayList<String>();
        for (var s : sent) {
            if ("VALIDATED".equals(reader.request(s.operationId()).status())) {
                validated.add(s.operationId());
            }
        }
        var carriedBy = new HashMap<String, Set<String>>();
        for (var merge : sims.mergeLog().merges()) {
            for (var op : merge.operationIds()) {
                carriedBy.computeIfAbsent(op, k -> new HashSet<>()).add(merge.project() + "!" + merge.iid());
            }
        }
        run.violations.addAll(SafetyProperties.validatedWithoutEvidence(validated, sims.deploy().sentReports(), carriedBy,
                Set.copyOf(run.confirmedByHand)));
        run.violations.addAll(SafetyProperties.twoOpenMergeRequests(sims.gitlab().openMergeRequests(SimulatorHost.PROJECT)));
    }

    /** A version-4 UUID from the run's random source: the request's operation ID, known before it is submitted. */
    private static String uuid(Random random) {
        var msb = (random.nextLong() & ~0xF000L) | 0x4000L;
        var lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    private static String count(List<Sent> sent, Function<Sent, String> key) {
        var counts = new TreeMap<String, Integer>();
        sent.forEach(s -> counts.merge(key.apply(s), 1, Integer::sum));
        return counts.toString();
    }
}
