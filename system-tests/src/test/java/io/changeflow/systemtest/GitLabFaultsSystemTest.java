package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With a fifth of the GitLab calls failing (10% answered 500/503 without effect, 10% applied but
 * answered 504: the "lost response"), every request reaches VALIDATED within a bounded time, without an
 * operator: transient faults never reach people. Nothing is done twice (one merge request per request,
 * each merged once, approved by each bot once, its grant line on main once), and while it waits no
 * request is ever failed or blamed on the maintainers.
 *
 * <p>What makes it so: the adapter tries an idempotent read that failed again (up to 2 more times,
 * 200 ms then 400 ms apart), writes are made once and the step reads remote state before repeating one,
 * and a step's transient retries ({@code changeflow.workflow.transient-retries}, the default 8 here, with
 * the default backoff of 2 s doubling up to 1 min) are counted per stretch without progress: every
 * completed run or state change starts the count again. The circuit breaker keeps its production settings
 * and opens now and then at this fault rate (5 failures in its window of 10 calls), which the retries
 * ride out.
 *
 * <p>{@code -Dsystem.faultRequests=N} (default 20), {@code -Dsystem.faultSeed=S} for the fault decisions,
 * {@code -Dsystem.faultBoundSeconds} (CI 150) for how long every request may take.
 */
class GitLabFaultsSystemTest {

    static final int REQUESTS = Integer.getInteger("system.faultRequests", 20);
    static final long SEED = Long.getLong("system.faultSeed", 20261129L);
    static final Duration BOUND = Duration.ofSeconds(Long.getLong("system.faultBoundSeconds", 150));

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create()
            // one target (one grant file) per request: this test is about faults, ConcurrentRequestsSystemTest
            // about requests for one target
            .withPlainTargets(REQUESTS)
            .withInstances("solo");

    @Test
    void everyRequestReachesValidatedWithoutAnOperatorDespiteOneGitLabCallInFiveFailing() {
        var sims = cluster.sims();
        var alice = cluster.client("solo", "alice");
        var ids = submitUnderGitLabFaults(cluster, alice, REQUESTS);

        var started = System.nanoTime();
        var failedOnTheWay = new ArrayList<String>();
        var views = Poll.until("every request VALIDATED (or stopped: failed or waiting for an operator)", BOUND,
                Duration.ofSeconds(1), () -> {
                    var now = ids.stream().map(alice::request).toList();
                    now.stream().filter(v -> !"VALIDATED".equals(v.status()) && v.isAtRest())
                            .map(RequestView::toString).filter(v -> !failedOnTheWay.contains(v)).forEach(failedOnTheWay::add);
                    return now;
                }, all -> all.stream().allMatch(RequestView::isAtRest));
        var validatedAfter = Duration.ofNanos(System.nanoTime() - started);
        var calls = sims.gitlabCalls().all();
        var failed = sims.faults().injectedFailures(Faults.GITLAB);
        var lost = sims.faults().injectedLostResponses(Faults.GITLAB);
        sims.clearFaults();
        // the faults really happened: about one call in ten failed and one in ten lost its answer
        assertThat(failed).as("injected 5xx").isGreaterThanOrEqualTo(REQUESTS);
        assertThat(lost).as("injected lost responses").isGreaterThanOrEqualTo(REQUESTS);

        Figures.record("GitLab faults: outcome of " + REQUESTS + " requests (errorRate 0.10, lostResponseRate 0.10, seed "
                        + SEED + ", transient-retries 8 (default), no operator)",
                "status / step / hint -> count\n" + Figures.table(new TreeMap<>(Invariants.outcomeTable(views)))
                        + "all at rest after " + validatedAfter.toMillis() + " ms (bound " + BOUND.toSeconds() + " s); GitLab "
                        + "calls that reached the simulator: " + calls.size() + ", injected 5xx (not applied): " + failed
                        + ", applied with the response lost (504): " + lost
                        + "; stopped on the way: " + failedOnTheWay
                        + "; repeated approval attempts (a lost approval whose approvals read failed 3 times, fail-open): "
                        + Invariants.repeatedApprovalAttempts(sims.gitlabCalls()));

        assertThat(views).allSatisfy(v -> assertThat(v.status()).as(v + " " + v.detail()).isEqualTo("VALIDATED"));
        assertNothingDoneTwice(views);
    }

    private static void assertNothingDoneTwice(List<RequestView> views) {
        var sims = cluster.sims();
        var problems = new ArrayList<String>();
        for (var view : views) {
            problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, view));
        }
        assertThat(problems).isEmpty();
    }

    /**
     * Turns on this journey's GitLab faults ({@link #SEED}; one call in ten fails, one in ten loses its answer)
     * and has {@code alice} submit {@code requests} requests, one plain target each: their operation ids.
     */
    static List<String> submitUnderGitLabFaults(ChangeflowCluster cluster, ApiClient alice, int requests) {
        cluster.sims().faults().reseed(SEED);
        cluster.sims().faults(Faults.GITLAB, new FaultSettings(0, 0.10, 0.10, 0, 0, 0, 0));
        var ids = new ArrayList<String>();
        for (int i = 1; i <= requests; i++) {
            var response = alice.submit(InstanceSettings.plainTargetKey(i), String.format("svc-fault-%02d", i), "faults");
            assertThat(response.status()).as(response.toString()).isEqualTo(202);
            ids.add(response.data().path("operationId").asString());
        }
        return ids;
    }
}
