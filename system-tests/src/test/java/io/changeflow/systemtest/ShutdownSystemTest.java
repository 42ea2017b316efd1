package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ApiResponse;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Convergence;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.Sql;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A graceful stop that the load balancer sees (issue 31): two instances on one database behind a load balancer of
 * the test's own (it sends each request to an instance whose {@code /actuator/health/readiness} last answered 200, and
 * asks every 100 ms). Instance a gets SIGTERM ({@link AppInstance#stop(Duration)}, not a kill) while it runs a step
 * of a merge request and while a burst of parallel submissions comes in through the balancer:
 * <ul>
 *   <li>a's readiness answers 503 while a still answers HTTP (the drain, 3 s here): the balancer sees DOWN before a
 *       stops accepting, and routes everything to b from then on;</li>
 *   <li>every submission sent gets its answer: no connection reset, no 5xx;</li>
 *   <li>a exits by itself (exit code 143, the harness would kill it after 30 s) and holds no step row once it is
 *       gone: what it ran either finished or was released for b at once. The dead-execution timeout is a minute
 *       here: without the release, a's last step would still be picked by a when the process has exited;</li>
 *   <li>nothing is lost or done twice: every request VALIDATED, each merge request merged once with the request's
 *       grant line, no bot approved twice.</li>
 * </ul>
 * GitLab answers every call 300 ms late, so a step takes seconds and the SIGTERM lands inside one. Batch claims
 * too: requests of a batchable target wait for the rounds both instances run every 2 s, and an operator's round is
 * asked of a at the moment of the SIGTERM; its answer comes (a claim that began is finished, or it was refused before
 * a took it and is asked of b), and every batch member is merged once by its batch.
 */
class ShutdownSystemTest {

    static final int FIRST = 4;
    static final int BURST_THREADS = 4;
    static final int BURST_EACH = 3;
    static final Duration DRAIN = Duration.ofSeconds(3);
    static final int BATCHED = 6;
    static final String BATCH_TARGET = "dashboards-viewer";

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            .withPlainTargets(FIRST + BURST_THREADS * BURST_EACH)
            .withInstanceProperty("changeflow.shutdown.drain-delay", DRAIN.toSeconds() + "s")
            .withInstanceProperty("changeflow.scheduler.dead-execution-timeout", "60s")
            .withInstances("a", "b");

    @Test
    void aSigtermedInstanceGoesUnreadyFirstFinishesOrHandsOverItsStepsAndLosesNoRequest() throws Exception {
        var sims = cluster.sims();
        var ds = cluster.dataSource();
        sims.faults(Faults.GITLAB, new FaultSettings(300, 0, 0, 0, 0, 0, 0));
        var balancer = new Balancer(List.of(cluster.instance("a"), cluster.instance("b")));
        var ids = new CopyOnWriteArrayList<String>();
        var target = new AtomicInteger();
        for (int i = 0; i < FIRST; i++) {
            // straight to a: it has steps to run when the SIGTERM comes
            var response = cluster.client("a", "alice").submit(InstanceSettings.plainTargetKey(target.incrementAndGet()),
                    String.format("svc-stop-%02d", target.get()), "graceful stop");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            ids.add(response.data().path("operationId").asString());
        }
        var batched = new ArrayList<String>();
        for (int i = 1; i <= BATCHED; i++) {
            var response = cluster.client("a", "alice").submit(BATCH_TARGET, String.format("svc-stop-batch-%02d", i),
                    "graceful stop, batched");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            batched.add(response.data().path("operationId").asString());
        }
        var held = Poll.until("instance a running a step of a merge request", Duration.ofSeconds(60),
                Duration.ofMillis(50), () -> Sql.stepsPickedBy(ds, "a"),
                steps -> steps.stream().anyMatch(s -> s.startsWith("HANDLE:")));

        var answers = new CopyOnWriteArrayList<String>();
        var failures = new CopyOnWriteArrayList<String>();
        var burst = Executors.newFixedThreadPool(BURST_THREADS);
        var stopping = Executors.newSingleThreadExecutor();
        try {
            for (int t = 0; t < BURST_THREADS; t++) {
                burst.submit(() -> {
                    try {
                        sendBurst(balancer, target, ids, answers, failures);
                    } catch (RuntimeException | Error e) {
                        failures.add("burst thread: " + e);
                    }
                });
            }
            pause(Duration.ofMillis(300));
            var heldAtSigterm = Sql.stepsPickedBy(ds, "a");
            var sigterm = System.nanoTime();
            balancer.mark();
            // an operator's batch round asked of a as the SIGTERM comes
            var round = stopping.submit(() -> batchRound(balancer));
            var exit = stopping.submit(() -> cluster.instance("a").stop(Duration.ofSeconds(30)));
            var exitCode = exit.get(60, TimeUnit.SECONDS);
            var exited = Duration.ofNanos(System.nanoTime() - sigterm);
            burst.shutdown();
            assertThat(burst.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            balancer.close();

            var roundAnswer = round.get(60, TimeUnit.SECONDS);
            var leftOnA = Sql.stepsPickedBy(ds, "a");
            Figures.record("SIGTERM mid-step and mid-burst, two instances: the stop",
                    "a held " + held + ", then " + heldAtSigterm + " at the SIGTERM; the operator's batch round: "
                            + roundAnswer + "; readiness of a before it: " + balancer.seen("a")
                            + ", since: " + balancer.seenSinceMark("a") + "\n"
                            + "a exited with " + exitCode + " after " + exited.toMillis() + " ms (drain " + DRAIN.toMillis()
                            + " ms, stop budget 5 s); steps still held by a after its exit: " + leftOnA + "\n"
                            + "burst answers " + new TreeMap<>(count(answers)) + "; failures " + failures);

            // the balancer saw a DOWN while a still answered HTTP, and only then did a stop accepting
            assertThat(balancer.seenSinceMark("a")).as("readiness answers of a since the SIGTERM, in order")
                    .containsSubsequence("503", "refused").endsWith("refused");
            // no connection reset, no 5xx for anything sent, the batch round included
            assertThat(failures).isEmpty();
            assertThat(roundAnswer).as("the operator's batch round, answered").matches(".*200 (CLAIMED|NOTHING_TO_CLAIM|SLOT_OCCUPIED)");
            assertThat(answers).hasSize(BURST_THREADS * BURST_EACH);
            // exited by itself within the shutdown phases (the harness kills after 30 s: 137)
            assertThat(exitCode).isEqualTo(143);
            // finished or released at the stop: nothing waits for the dead-execution timeout
            assertThat(leftOnA).isEmpty();

            var views = Convergence.awaitAll(cluster.client("b", "otto"), ids, Duration.ofSeconds(120));
            var allDone = Duration.ofNanos(System.nanoTime() - sigterm);
            sims.clearFaults();
            Figures.record("SIGTERM mid-step and mid-burst, two instances: " + ids.size() + " requests",
                    "all requests at rest " + allDone.toMillis() + " ms after the SIGTERM (dead-execution timeout 60 s): "
                            + new TreeMap<>(Invariants.outcomeTable(views)));
            // nothing lost, nothing done twice
            assertThat(views).allSatisfy(v -> assertThat(v.status()).as(v.toString()).isEqualTo("VALIDATED"));
            var members = Convergence.awaitAll(cluster.client("b", "otto"), batched, Duration.ofSeconds(120));
            var problems = new ArrayList<String>();
            views.forEach(v -> problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, v)));
            members.forEach(v -> problems.addAll(Invariants.deliveredInABatch(sims, v)));
            problems.addAll(Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));
            assertThat(problems).isEmpty();
            assertThat(Sql.number(ds, "select count(*) from service_instance where name = 'a' and stopped_at is not null"))
                    .as("a is STOPPED in the roster").isEqualTo(1);
        } finally {
            burst.shutdownNow();
            stopping.shutdownNow();
            balancer.close();
        }
    }

    private static void sendBurst(Balancer balancer, AtomicInteger target, List<String> ids, List<String> answers,
                                  List<String> failures) {
        for (int k = 0; k < BURST_EACH; k++) {
            var key = target.incrementAndGet();
            var via = balancer.pick();
            try {
                var response = via.client("alice").submit(InstanceSettings.plainTargetKey(key),
                        String.format("svc-stop-%02d", key), "burst during a graceful stop");
                answers.add(via.name() + " " + response.status());
                if (response.status() == 202) {
                    ids.add(response.data().path("operationId").asString());
                } else {
                    failures.add(via.name() + " answered " + response);
                }
            } catch (UncheckedIOException e) {
                failures.add(via.name() + ": " + e.getMessage());
            }
            pause(Duration.ofMillis(400));
        }
    }

    private static Map<String, Integer> count(List<String> answers) {
        var counts = new ConcurrentHashMap<String, Integer>();
        answers.forEach(a -> counts.merge(a, 1, Integer::sum));
        return counts;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * A load balancer's view of the instances: each one's readiness asked every 100 ms ({@code 200}, {@code 503},
     * {@code refused} when nothing listens), requests sent round-robin to those whose last answer was 200.
     */
    /** {@code POST /ops/batch-rounds} asked of a; refused before a took it (a stopped accepting), asked of b. */
    private static String batchRound(Balancer balancer) {
        try {
            var answer = cluster.client("a", "otto").batchRound("global");
            return "a " + answer.status() + " " + answer.code();
        } catch (UncheckedIOException refused) {
            var answer = balancer.pick().client("otto").batchRound("global");
            return "refused by a, then " + answer.status() + " " + answer.code();
        }
    }

    private static final class Balancer implements AutoCloseable {

        private final List<AppInstance> instances;
        private final Map<String, List<String>> seen = new ConcurrentHashMap<>();
        private final Map<String, Boolean> ready = new ConcurrentHashMap<>();
        private final Map<String, List<String>> sinceMark = new ConcurrentHashMap<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger next = new AtomicInteger();
        private final Thread prober;

        Balancer(List<AppInstance> instances) {
            this.instances = instances;
            instances.forEach(i -> {
                seen.put(i.name(), new CopyOnWriteArrayList<>());
                ready.put(i.name(), true);
            });
            prober = Thread.ofPlatform().daemon().name("balancer-readiness").start(() -> {
                while (running.get()) {
                    for (var instance : instances) {
                        var answer = probe(instance);
                        var answers = seen.get(instance.name());
                        if (answers.isEmpty() || !answers.getLast().equals(answer)) {
                            answers.add(answer);
                        }
                        var marked = sinceMark.get(instance.name());
                        if (marked != null) {
                            marked.add(answer);
                        }
                        ready.put(instance.name(), answer.equals("200"));
                    }
                    pause(Duration.ofMillis(100));
                }
            });
        }

        private static String probe(AppInstance instance) {
            try {
                ApiResponse response = new ApiClient(instance.managementUrl(), null).withTimeout(Duration.ofSeconds(2))
                        .get("/actuator/health/readiness");
                return Integer.toString(response.status());
            } catch (UncheckedIOException e) {
                return "refused";
            }
        }

        /** An instance whose readiness last answered 200 (round-robin); waits up to 30 s while none does. */
        AppInstance pick() {
            var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (true) {
                var candidates = instances.stream().filter(i -> ready.getOrDefault(i.name(), false)).toList();
                if (!candidates.isEmpty()) {
                    return candidates.get(Math.floorMod(next.getAndIncrement(), candidates.size()));
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("no instance ready for 30 s: " + seen);
                }
                pause(Duration.ofMillis(50));
            }
        }

        /** From now on (the SIGTERM) every answer is kept, repeats included. */
        void mark() {
            instances.forEach(i -> sinceMark.put(i.name(), new CopyOnWriteArrayList<>()));
        }

        /** The answers of {@code name} since {@link #mark()}, changes only. */
        List<String> seenSinceMark(String name) {
            var changes = new ArrayList<String>();
            for (var answer : sinceMark.getOrDefault(name, List.of())) {
                if (changes.isEmpty() || !changes.getLast().equals(answer)) {
                    changes.add(answer);
                }
            }
            return changes;
        }

        /** The distinct readiness answers of {@code name}, in order. */
        List<String> seen(String name) {
            return List.copyOf(seen.get(name));
        }

        @Override
        public void close() {
            running.set(false);
            try {
                prober.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
