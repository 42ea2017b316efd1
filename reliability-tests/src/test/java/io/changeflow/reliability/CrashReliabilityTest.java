package io.changeflow.reliability;

import static io.changeflow.reliability.support.Pauses.pause;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.reliability.support.Sizes;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crash: two instances on one database; in each run requests flow (submitted one after another
 * through either instance, both step orders over the runs) and one instance, chosen at random, is
 * SIGKILLed at a random point: while submissions are in flight to it (a burst sent to it right
 * before the kill), after a random number of GitLab calls of the run, or while it holds a workflow
 * step (the three modes take turns, the victim and the moment are random). The victim is started again
 * afterwards. A client whose submission got no answer retries it with the same operationId on the other
 * instance, as a person pressing "submit" again would.
 *
 * <p>Per run: every submission ends ACCEPTED or DUPLICATE_SUBMIT (none stuck IDEMPOTENCY_IN_FLIGHT), every
 * request converges by itself, no operator acting (a KEEP_WAITING request has not converged: something still
 * works on it), and every request is VALIDATED on one merge request approved once by each
 * bot and merged once (no repeated approval attempt by a bot that had approved). Measured: the time
 * from the kill until the survivor took over the victim's steps, and until it wrote the next state of
 * every request whose step the victim held (resumed the work).
 *
 * <p>{@code -Dreliability.crash.runs=N} (CI 3, long run 50), {@code -Dreliability.crash.requests=R}.
 */
class CrashReliabilityTest {

    static final int RUNS = Sizes.of("reliability.crash.runs", 3);
    static final int REQUESTS = Sizes.of("reliability.crash.requests", 6);
    static final int BURST = 4;
    /**
     * How long a client retries one submission: an unanswered idempotency claim of a dead instance is taken over
     * after 30 s ({@code SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER}), so past that, plus a margin for a loaded machine.
     */
    static final Duration SUBMIT_DEADLINE = Duration.ofSeconds(75);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            // one target per request of a run; runs reuse them once the previous run is VALIDATED
            .withPlainTargets(REQUESTS + BURST)
            .withInstances("a", "b");

    static final ExecutorService POOL = Executors.newVirtualThreadPerTaskExecutor();

    enum KillMode { DURING_SUBMISSIONS, AFTER_GITLAB_CALLS, HOLDING_A_STEP }

    record Run(int run, String order, KillMode mode, String victim, int held, long takeoverMs, long resumeMs,
               int submitted, int lost, int inFlightTakeovers, Map<String, Integer> converged, long runMs) {}

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    @Test
    void theSurvivorFinishesTheWorkOfAnInstanceKilledAtRandomPointsAndNothingIsLostOrDoneTwice() throws Exception {
        var random = new Random(Sizes.seed());
        var sims = cluster.sims();
        var ds = cluster.dataSource();
        // every GitLab call takes a moment, so that steps span time and a kill lands inside one
        sims.faults(Faults.GITLAB, new FaultSettings(150, 0, 0, 0, 0, 0, 0));
        var runs = new ArrayList<Run>();
        var problems = new ArrayList<String>();
        var allIds = new ArrayList<String>();
        var started = System.nanoTime();
        for (int run = 1; run <= RUNS; run++) {
            var runStart = System.nanoTime();
            var approveFirst = run % 2 == 0;
            applyOrder(approveFirst);
            // the kill modes take turns (so the three CI runs cover each once); victim and moment are random
            var mode = KillMode.values()[(run - 1) % KillMode.values().length];
            var victim = cluster.instance(random.nextBoolean() ? "a" : "b");
            var survivor = cluster.instance(victim.name().equals("a") ? "b" : "a");
            var callsAtStart = sims.gitlabCalls().all().size();
            var submissions = new Submissions(run, random.nextLong());

            var flow = CompletableFuture.runAsync(() -> {
                for (int i = 1; i <= REQUESTS; i++) {
                    submissions.submit(i, null);
                    pause(Duration.ofMillis(50 + submissions.random.nextInt(250)));
                }
            }, POOL);
            var burst = new ArrayList<CompletableFuture<Void>>();
            switch (mode) {
                case DURING_SUBMISSIONS -> {
                    var threshold = 1 + random.nextInt(REQUESTS);
                    Poll.tryUntil(Duration.ofSeconds(30), Duration.ofMillis(20), submissions.sent::get, n -> n >= threshold);
                    for (int b = 1; b <= BURST; b++) {
                        var index = REQUESTS + b;
                        burst.add(CompletableFuture.runAsync(() -> submissions.submit(index, victim), POOL));
                    }
                    pause(Duration.ofMillis(random.nextInt(40)));
                }
                case AFTER_GITLAB_CALLS -> {
                    var threshold = 1 + random.nextInt(REQUESTS * 10);
                    Poll.tryUntil(Duration.ofSeconds(60), Duration.ofMillis(20),
                            () -> sims.gitlabCalls().all().size() - callsAtStart, n -> n >= threshold);
                }
                case HOLDING_A_STEP -> {
                    Poll.tryUntil(Duration.ofSeconds(60), Duration.ofMillis(20),
                            () -> Sql.stepsPickedBy(ds, victim.name()).size(), n -> n > 0);
                    pause(Duration.ofMillis(random.nextInt(300)));
                }
            }
            var held = heldOperations(victim.name());
            var lastHistory = new HashMap<String, Long>();
            held.forEach(op -> lastHistory.put(op, Sql.number(ds,
                    "select coalesce(max(id), 0) from operation_history where operation_id = ?", op)));
            victim.kill();
            var killedAt = System.nanoTime();

            Poll.until("run " + run + ": the steps of the killed instance taken over", Duration.ofSeconds(60),
                    Duration.ofMillis(50), () -> Sql.number(ds, "select count(*) from scheduled_tasks where picked = true"
                            + " and picked_by = ?", victim.name()), n -> n == 0);
            var takeover = (System.nanoTime() - killedAt) / 1_000_000;
            var resume = -1L;
            if (!held.isEmpty()) {
                Poll.until("run " + run + ": the survivor moves every request the killed instance held", Duration.ofSeconds(90),
                        Duration.ofMillis(50), () -> held.stream().allMatch(op -> Sql.number(ds,
                                "select coalesce(max(id), 0) from operation_history where operation_id = ?", op)
                                > lastHistory.get(op)), Boolean.TRUE::equals);
                resume = (System.nanoTime() - killedAt) / 1_000_000;
            }
            var restart = CompletableFuture.runAsync(victim::start, POOL);
            // a submission whose instance died holding its claim is answered IDEMPOTENCY_IN_FLIGHT until the 30 s lease
            // runs out (SUBMIT_DEADLINE bounds each client); the flow and the burst end within that
            flow.get(SUBMIT_DEADLINE.toSeconds() * (REQUESTS + 1), TimeUnit.SECONDS);
            for (var b : burst) {
                b.get(SUBMIT_DEADLINE.toSeconds() + 30, TimeUnit.SECONDS);
            }
            var ids = submissions.ids();
            var reader = survivor.client("otto");
            // No operator: every request converges by itself (KEEP_WAITING is not converged: something still works on it)
            var views = Poll.until("run " + run + ": every request converged", Duration.ofSeconds(240), Duration.ofMillis(500),
                    () -> ids.stream().map(reader::request).toList(), all -> all.stream().allMatch(RequestView::hasConverged));
            var converged = new TreeMap<>(Invariants.outcomeTable(views));
            restart.get(240, TimeUnit.SECONDS);
            applyOrder(approveFirst);
            for (var view : views) {
                if (!"VALIDATED".equals(view.status())) {
                    problems.add("run " + run + ": " + view + " converged without taking effect (no operator acted)");
                } else {
                    problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, view));
                }
            }
            problems.addAll(submissions.problems);
            allIds.addAll(ids);
            runs.add(new Run(run, approveFirst ? "approve-first" : "create-first", mode, victim.name(), held.size(),
                    takeover, resume, ids.size() + submissions.lost.get(), submissions.lost.get(), submissions.inFlightTakeovers.get(), converged,
                    (System.nanoTime() - runStart) / 1_000_000));
        }
        sims.clearFaults();
        problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
        var operations = Sql.number(ds, "select count(*) from operation");
        if (operations != allIds.size()) {
            problems.add(operations + " operations in the database for " + allIds.size() + " distinct submissions");
        }
        record(runs, allIds.size(), problems, (System.nanoTime() - started) / 1_000_000);
        assertThat(problems).isEmpty();
    }

    private static void record(List<Run> runs, int requests, List<String> problems, long totalMs) {
        var text = new StringBuilder();
        text.append("run order          kill mode           victim held takeover ms resume ms submitted lost run ms  converged (no operator)\n");
        var takeovers = new ArrayList<Duration>();
        var resumes = new ArrayList<Duration>();
        var modes = new TreeMap<String, Integer>();
        var restTotals = new TreeMap<String, Integer>();
        for (var r : runs) {
            text.append(String.format("%3d %-14s %-19s %-6s %4d %11d %9s %9d %4d %6d  %s%n", r.run(), r.order(), r.mode(),
                    r.victim(), r.held(), r.takeoverMs(), r.resumeMs() < 0 ? "-" : Long.toString(r.resumeMs()),
                    r.submitted(), r.lost(), r.runMs(), r.converged()));
            takeovers.add(Duration.ofMillis(r.takeoverMs()));
            if (r.resumeMs() >= 0) {
                resumes.add(Duration.ofMillis(r.resumeMs()));
            }
            modes.merge(r.mode().name(), 1, Integer::sum);
            r.converged().forEach((k, v) -> restTotals.merge(k, v, Integer::sum));
        }
        text.append("kill modes: ").append(modes).append('\n');
        text.append("takeover (no step left marked running on the killed instance): ").append(Figures.latencies(takeovers)).append('\n');
        text.append("resume (every request the killed instance held has a new state written): ").append(Figures.latencies(resumes)).append('\n');
        text.append("converged without an operator, all runs:\n").append(Figures.table(restTotals));
        var lost = runs.stream().mapToInt(Run::lost).sum();
        text.append("operator actions: none; requests accepted: ").append(requests)
                .append("; submissions lost: ").append(lost).append("; took ").append(totalMs).append(" ms\n");
        var takeovers2 = runs.stream().mapToInt(Run::inFlightTakeovers).sum();
        text.append("submissions answered IDEMPOTENCY_IN_FLIGHT until the 30 s lease ran out, then decided by a retry: ")
                .append(takeovers2).append('\n');
        text.append("problems: ").append(problems).append('\n');
        Figures.record("crash: " + runs.size() + " runs, SIGKILL at random points, two instances", text.toString());
    }

    /** Writes the step order into every instance's dynamic file and waits until both show it. */
    private static void applyOrder(boolean approveFirst) {
        cluster.writeDynamicConfig(Map.of("workflow.approveFirst", Boolean.toString(approveFirst)));
        for (var instance : cluster.liveInstances()) {
            var otto = instance.client("otto");
            Poll.untilTrue("approveFirst=" + approveFirst + " on " + instance.name(), Duration.ofSeconds(20),
                    () -> Boolean.toString(approveFirst).equals(otto.configEntry("workflow.approveFirst").path("resolved").asString("")));
        }
    }

    /** The operations whose workflow step {@code scheduler} is running now. */
    private static List<String> heldOperations(String scheduler) {
        var ops = new ArrayList<String>();
        for (var step : Sql.stepsPickedBy(cluster.dataSource(), scheduler)) {
            var colon = step.lastIndexOf(':');
            var id = colon < 0 ? step : step.substring(colon + 1);
            try {
                UUID.fromString(id);
                ops.add(id);
            } catch (IllegalArgumentException notAnOperation) {
                // a batch step: not measured here
            }
        }
        return ops;
    }

    /**
     * The submissions of one run: each has its own operationId and target; an attempt that gets no
     * answer (the instance died under it), a 5xx or IDEMPOTENCY_IN_FLIGHT is retried with the same
     * operationId on a live instance for up to {@link #SUBMIT_DEADLINE} (past the 30 s lease of a dead
     * instance's claim), as a client would; no definite answer by then is a lost submission (a failure).
     */
    private static final class Submissions {

        final int run;
        final Random random;
        final AtomicInteger sent = new AtomicInteger();
        final Map<Integer, String> accepted = Collections.synchronizedMap(new LinkedHashMap<>());
        final List<String> problems = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger lost = new AtomicInteger();
        final AtomicInteger inFlightTakeovers = new AtomicInteger();

        Submissions(int run, long seed) {
            this.run = run;
            this.random = new Random(seed);
        }

        /** The operationIds whose submission was answered ACCEPTED or DUPLICATE_SUBMIT. */
        List<String> ids() {
            synchronized (accepted) {
                return List.copyOf(accepted.values());
            }
        }

        /** Submits request {@code index}, first to {@code first} (null: any live instance). */
        void submit(int index, AppInstance first) {
            var op = UUID.randomUUID().toString();
            var body = new LinkedHashMap<String, Object>();
            body.put("operationId", op);
            body.put("targetKey", InstanceSettings.plainTargetKey(index));
            body.put("subjectId", String.format("svc-crash-r%03d-%02d", run, index));
            body.put("reason", "crash run " + run);
            var deadline = System.nanoTime() + SUBMIT_DEADLINE.toNanos();
            var firstInFlight = 0L;
            var target = first;
            String last = "nothing";
            var attempts = 0;
            while (System.nanoTime() < deadline) {
                if (target == null || !target.isAlive()) {
                    var live = cluster.liveInstances();
                    if (live.isEmpty()) {
                        pause(Duration.ofMillis(200));
                        continue;
                    }
                    target = live.get(random.nextInt(live.size()));
                }
                attempts++;
                try {
                    if (attempts == 1) {
                        sent.incrementAndGet();
                    }
                    ApiResponse response = new ApiClient(target.baseUrl(), "alice").post("/api/requests", body);
                    last = response.status() + " " + response.code();
                    if (response.status() == 202 && op.equals(response.data().path("operationId").asString(""))) {
                        accepted.put(index, op);
                        if (firstInFlight != 0 && System.nanoTime() - firstInFlight > Duration.ofSeconds(25).toNanos()) {
                            inFlightTakeovers.incrementAndGet();
                        }
                        return;
                    }
                    if ("IDEMPOTENCY_IN_FLIGHT".equals(response.code()) && firstInFlight == 0) {
                        firstInFlight = System.nanoTime();
                    }
                    if (response.status() < 500 && !"IDEMPOTENCY_IN_FLIGHT".equals(response.code())) {
                        problems.add("run " + run + ": submission " + op + " refused: " + response);
                        return;
                    }
                } catch (UncheckedIOException noAnswer) {
                    last = "no answer from " + target.name();
                    target = null;
                }
                pause(Duration.ofMillis(200));
            }
            lost.incrementAndGet();
            var ds = cluster.dataSource();
            var key = Sql.rows(ds, "select outcome, created_at from idempotency_record where idem_key = ?", op);
            var operations = Sql.number(ds, "select count(*) from operation where id = ?", op);
            problems.add("run " + run + ": submission " + op + " LOST: no ACCEPTED/DUPLICATE_SUBMIT within "
                    + SUBMIT_DEADLINE.toSeconds() + " s after " + attempts + " attempts, last: " + last + "; idempotency_record "
                    + key + ", operation rows " + operations);
        }
    }
}
