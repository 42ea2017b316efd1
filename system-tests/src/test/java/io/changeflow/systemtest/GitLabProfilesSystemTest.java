package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Convergence;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The main journeys against the GitLab simulator answering like each GitLab version people run (issue 21, item 8),
 * with GitLab's asynchronous refresh after a push ({@code sandbox.gitlab.refresh-lag} 300 ms: a merge request
 * reports its previous head and that head's pipeline for that long) and its API rate limit on (429 with
 * {@code Retry-After}): per profile, on one cluster, a single request, two requests for the same grant file in
 * flight together and a few overlapping batch rounds on two instances; and, on the {@code gitlab-19} profile, the
 * GitLab faults journey (one call in five failing). The other system tests keep the default profile {@code gitlab-17}
 * without lag or limit; docs/external-systems-gitlab.md lists which test runs which profile.
 *
 * <p>The rate limit is the simulator's per account, counted over a 5 s period so that {@code Retry-After} stays
 * short: 240 calls a minute by default ({@code -Dsystem.gitlabCallsPerMinute}), so 20 per 5 s (600 a minute for the
 * faults journey, {@code -Dsystem.profileFaultCallsPerMinute}). It is switched off for the test's own checks (they
 * read GitLab's REST API as a maintainer would, which counts too)
 * and on again for the next journey; the 429s it answered are counted and must be more than none.
 */
class GitLabProfilesSystemTest {

    static final String REFRESH_LAG = "300ms";
    static final int CALLS_PER_MINUTE = Integer.getInteger("system.gitlabCallsPerMinute", 240);
    static final String RATE_LIMIT_PERIOD = "5s";
    static final int BATCH_ITERATIONS = Integer.getInteger("system.profileRounds", 4);
    static final int FAULT_REQUESTS = Integer.getInteger("system.profileFaultRequests", 6);
    /**
     * The faults journey's rate: one call in five fails and is retried, so its requests need more calls than the
     * journeys above; at 240 a minute ten requests need longer than the journey's wait just to make their calls.
     */
    static final int FAULT_CALLS_PER_MINUTE = Integer.getInteger("system.profileFaultCallsPerMinute", 600);

    /** The simulator answering as {@code profile}, with the refresh lag and the rate limit on. */
    private static ChangeflowCluster cluster(String profile) {
        return cluster(profile, CALLS_PER_MINUTE);
    }

    private static ChangeflowCluster cluster(String profile, int callsPerMinute) {
        return ChangeflowCluster.create()
                .withSimulatorProperty("sandbox.gitlab.profile", profile)
                .withSimulatorProperty("sandbox.gitlab.refresh-lag", REFRESH_LAG)
                .withSimulatorProperty("sandbox.gitlab.rate-limit-per-minute", callsPerMinute)
                .withSimulatorProperty("sandbox.gitlab.rate-limit-period", RATE_LIMIT_PERIOD)
                // Approvals kept across pushes (GitLab's default resets them, issue 35): the journeys' invariant counts
                // any second approval by a bot as a repeated one, which is what 429s must not cause; with resets on, a
                // rebased batch is rightly approved again (StalePipelineSystemTest and OwnHeadPipelineTest cover that).
                .withSimulatorProperty("sandbox.gitlab.reset-approvals-on-push", "false");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"gitlab-17", "gitlab-19"})
    void theSingleSameFileAndBatchJourneysTakeEffect(String profile) {
        try (var cluster = cluster(profile)
                .withPlainTargets(1)
                .withSimulatorProperty("sandbox.gitlab.pipeline-duration", "1s")
                .withInstanceProperty("changeflow.batch.round-interval", "1s")
                .withInstanceProperty("changeflow.catalog.targets[2].partition", "vpn")
                .withInstances("a", "b")) {
            cluster.open(getClass().getSimpleName() + "-" + profile);
            assertThat(cluster.sims().gitlab().properties().profile()).isEqualTo(profile);
            assertThat(cluster.sims().gitlab().behaviour().profile()).isEqualTo(profile);
            var limit = cluster.sims().gitlabRateLimit();
            assertThat(limit.perMinute()).isEqualTo(CALLS_PER_MINUTE);

            var single = limited(cluster, () -> singleRequest(cluster));
            checks(cluster, () -> assertThat(Invariants.deliveredOnItsOwnMergeRequest(cluster.sims(), single)).isEmpty());
            var afterSingle = limit.refused();

            var sameFile = limited(cluster, () -> twoRequestsForOneFile(cluster));
            checks(cluster, () -> {
                var problems = new ArrayList<String>();
                sameFile.forEach(v -> problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(cluster.sims(), v)));
                assertThat(problems).isEmpty();
                var file = cluster.sims().fileOnMain(Invariants.grantFileOf("db-prod-readonly")).orElseThrow();
                assertThat(file).contains("svc-same-1 ").contains("svc-same-2 ");
            });
            var afterSameFile = limit.refused();

            var batch = limited(cluster, () -> batchRounds(cluster));
            checks(cluster, () -> {
                assertThat(Invariants.batchMembershipProblems(cluster.dataSource())).isEmpty();
                var problems = new ArrayList<String>();
                batch.forEach(v -> problems.addAll(Invariants.deliveredInABatch(cluster.sims(), v)));
                assertThat(problems).isEmpty();
                assertThat(Invariants.repeatedApprovalAttempts(cluster.sims().gitlabCalls())).isEmpty();
            });
            var refused = limit.refused();
            Figures.record("GitLab profile " + profile + " (refresh lag " + REFRESH_LAG + ", " + CALLS_PER_MINUTE
                            + " calls a minute per account over " + RATE_LIMIT_PERIOD + ")",
                    "429s answered: single request " + afterSingle + ", two requests for one file "
                            + (afterSameFile - afterSingle) + ", batch rounds " + (refused - afterSameFile) + "; total " + refused);
            assertThat(refused).as("the rate limit really answered 429s").isPositive();
        }
    }

    /** The GitLab faults journey (GitLabFaultsSystemTest's, fewer requests) on GitLab 19's answers, lag and 429s on. */
    @Test
    void theFaultsJourneyTakesEffectOnGitLab19() {
        try (var cluster = cluster("gitlab-19", FAULT_CALLS_PER_MINUTE).withPlainTargets(FAULT_REQUESTS).withInstances("solo")) {
            cluster.open(getClass().getSimpleName() + "-faults-gitlab-19");
            var sims = cluster.sims();
            var alice = cluster.client("solo", "alice");
            var ids = GitLabFaultsSystemTest.submitUnderGitLabFaults(cluster, alice, FAULT_REQUESTS);
            var views = Poll.until("every request at rest", Duration.ofSeconds(240), Duration.ofSeconds(1),
                    () -> ids.stream().map(alice::request).toList(), all -> all.stream().allMatch(RequestView::isAtRest));
            var failed = sims.faults().injectedFailures(Faults.GITLAB);
            var lost = sims.faults().injectedLostResponses(Faults.GITLAB);
            sims.clearFaults();
            var refused = sims.gitlabRateLimit().refused();
            sims.gitlabRateLimit().setPerMinute(0);
            Figures.record("GitLab faults on profile gitlab-19 (refresh lag " + REFRESH_LAG + ", " + FAULT_CALLS_PER_MINUTE
                            + " calls a minute per account over " + RATE_LIMIT_PERIOD + ")",
                    Figures.table(new TreeMap<>(Invariants.outcomeTable(views))) + "injected 5xx: " + failed
                            + ", lost responses: " + lost + ", 429s: " + refused);

            assertThat(failed).as("injected 5xx").isPositive();
            assertThat(lost).as("injected lost responses").isPositive();
            assertThat(refused).as("the rate limit really answered 429s").isPositive();
            assertThat(views).allSatisfy(v -> assertThat(v.status()).as(v + " " + v.detail()).isEqualTo("VALIDATED"));
            var problems = new ArrayList<String>();
            views.forEach(v -> problems.addAll(Invariants.deliveredOnItsOwnMergeRequest(sims, v)));
            assertThat(problems).isEmpty();
        }
    }

    /** RequestLifecycleSystemTest's main journey (one order): submitted, VALIDATED on its own merge request. */
    private static RequestView singleRequest(ChangeflowCluster cluster) {
        var alice = cluster.client("a", "alice");
        var submitted = alice.submit(InstanceSettings.plainTargetKey(1), "svc-profile-single", "profiles");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var view = Poll.until("request " + id + " at rest", Duration.ofSeconds(90), () -> alice.request(id),
                RequestView::isAtRest);
        assertThat(view.status()).as(view.outcome() + " " + view.detail()).isEqualTo("VALIDATED");
        assertThat(view.hint()).isEqualTo("NONE");
        return view;
    }

    /** ConcurrentRequestsSystemTest's same-file journey: both take effect, the second regenerated after its rebase conflicted. */
    private static List<RequestView> twoRequestsForOneFile(ChangeflowCluster cluster) {
        var alice = cluster.client("a", "alice");
        var otto = cluster.client("a", "otto");
        var commitsBefore = commits(cluster);
        var first = alice.submit("db-prod-readonly", "svc-same-1", "same target").data().path("operationId").asString();
        var second = alice.submit("db-prod-readonly", "svc-same-2", "same target").data().path("operationId").asString();
        var views = Poll.until("both at rest", Duration.ofSeconds(120), () -> List.of(alice.request(first),
                alice.request(second)), vs -> vs.stream().allMatch(RequestView::isAtRest));
        assertThat(views).allSatisfy(v -> assertThat(v.status()).as(v.outcome() + " " + v.detail()).isEqualTo("VALIDATED"));
        var regenerated = new ArrayList<String>();
        for (var id : List.of(first, second)) {
            otto.operation(id).path("history").forEach(entry -> {
                if (entry.path("detail").asString("").contains("generating its change again")) {
                    regenerated.add(id);
                }
            });
        }
        assertThat(regenerated).as("the second to merge was generated again after its rebase conflicted").hasSize(1);
        assertThat(commits(cluster) - commitsBefore).as("one commit per request, one forced commit of the regenerated one")
                .isEqualTo(3);
        return views;
    }

    private static int commits(ChangeflowCluster cluster) {
        return cluster.sims().gitlabCalls().matching(c -> "POST".equals(c.method()) && c.path().endsWith("/repository/commits")
                && c.status() == 201).size();
    }

    /**
     * BatchRoundsSystemTest's main round, shortened: requests fed into two partitions while manual rounds are fired
     * at both instances and the recurring round runs; never two active batches in a partition, every request
     * merged once in a batch, VALIDATED by itself (no operator acts).
     */
    private static List<RequestView> batchRounds(ChangeflowCluster cluster) {
        var a = cluster.client("a", "alice");
        var b = cluster.client("b", "bob");
        var opsA = cluster.client("a", "otto");
        var opsB = cluster.client("b", "otto");
        var ids = new ArrayList<String>();
        var violations = new ArrayList<String>();
        for (int i = 0; i < BATCH_ITERATIONS; i++) {
            var vpn = i % 2 == 1;
            var submitter = vpn ? b : a;
            var fed = submitter.submit(vpn ? "vpn-staging" : "dashboards-viewer", String.format("svc-batch-%02d", i), "rounds");
            assertThat(fed.status()).as(fed.toString()).isEqualTo(202);
            ids.add(fed.data().path("operationId").asString());
            for (var round : List.of(opsA.batchRound(vpn ? "vpn" : "global"), opsB.batchRound(vpn ? "vpn" : "global"))) {
                assertThat(round.status()).as(round.toString()).isEqualTo(200);
            }
            violations.addAll(twoActiveBatches(cluster));
        }
        Poll.until("every batched request at rest", Duration.ofSeconds(120), Duration.ofSeconds(1), () -> {
            violations.addAll(twoActiveBatches(cluster));
            return ids.stream().map(opsA::request).toList();
        }, vs -> vs.stream().allMatch(RequestView::isAtRest));
        var converged = Convergence.awaitAll(opsA, ids, Duration.ofSeconds(60));
        Figures.record("batch rounds on a GitLab profile", new TreeMap<>(Invariants.outcomeTable(converged))
                + "; operator actions: none");
        assertThat(violations).isEmpty();
        assertThat(converged).allSatisfy(v -> assertThat(v.status()).as(v.outcome() + " " + v.detail()).isEqualTo("VALIDATED"));
        return converged;
    }

    private static List<String> twoActiveBatches(ChangeflowCluster cluster) {
        return Sql.rows(cluster.dataSource(), "select partition_key, count(*) as n from merge_batch where status in (1, 4)"
                + " group by partition_key having count(*) > 1").stream().map(row -> "two active batches: " + row).toList();
    }

    /** Runs a journey with the rate limit on (as configured; counts start afresh). */
    private static <T> T limited(ChangeflowCluster cluster, Supplier<T> journey) {
        cluster.sims().gitlabRateLimit().setPerMinute(CALLS_PER_MINUTE);
        return journey.get();
    }

    /** Runs the test's own checks with the rate limit off: they read GitLab's REST API too. */
    private static void checks(ChangeflowCluster cluster, Runnable checks) {
        cluster.sims().gitlabRateLimit().setPerMinute(0);
        checks.run();
    }
}
