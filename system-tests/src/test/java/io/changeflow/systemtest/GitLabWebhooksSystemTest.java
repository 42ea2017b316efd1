package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.PipelineOutcome;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.GitLabCalls;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.SimulatorHost;
import io.changeflow.systemtest.harness.Sql;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 33 item 3 on the packaged application: the simulator host's GitLab sends its project hook events (pipeline and
 * merge request events with GitLab's headers) through the relay, as GitLab would through a load balancer, to the
 * instance's {@code POST /callbacks/gitlab}; the instance's pipeline wait polls only every 10 minutes as a fallback.
 * The event of the pipeline's success wakes the waiting step, so the merge comes seconds after the success, not at the
 * next fallback look. The GitLab calls of the request are counted and printed (docs/benchmarks.md).
 *
 * <p>{@code -Dsystem.webhooks=off} (a documented run, not CI) is the same request with the instance's webhooks off
 * (no secret: the events are answered 404 and the wait polls at the harness's 300 ms), for the calls beside "on".
 */
class GitLabWebhooksSystemTest {

    /** The hooks' secret token, on both sides (GitLab's hook and {@code changeflow.gitlab.webhooks.secret}). */
    private static final String HOOK_TOKEN = "glwh-system-test-token";
    /** Far below the fallback interval (10 min): only a delivered event can make the merge come this early. */
    private static final Duration WOKEN_WITHIN = Duration.ofSeconds(30);
    /**
     * Merge request reads while the pipeline runs (until the test ends it) with webhooks on: the first look, and one per event that wakes
     * the step early (e.g. the merge request's "open"). Polling at 300 ms would read it about 20 times.
     */
    private static final int LOOKS_WHILE_RUNNING_ON = 3;
    /** How long the test lets the pipeline run after the step's first look, with webhooks on, before it ends it. */
    private static final Duration WAITED_FOR_THE_EVENT = Duration.ofSeconds(3);
    private static final boolean WEBHOOKS = !"off".equalsIgnoreCase(System.getProperty("system.webhooks", "on"));

    @RegisterExtension
    static final ChangeflowCluster cluster = cluster();

    private static ChangeflowCluster cluster() {
        var cluster = ChangeflowCluster.create()
                // every project's hook goes to the relay (resolved to the host's own port), which forwards to the instance
                .withSimulatorProperty("sandbox.gitlab.webhooks.url",
                        "http://127.0.0.1:${server.port}/relay/callbacks/gitlab")
                .withSimulatorProperty("sandbox.gitlab.webhooks.token", HOOK_TOKEN)
                // the pipeline would run far past the test: the test ends it (forced success) once the waiting step has
                // looked at it, so "the step looked while it ran" does not depend on the machine's speed (a 6 s and then
                // a 15 s pipeline both ended before the first look on the loaded CI machine, 2026-12-07)
                .withSimulatorProperty("sandbox.gitlab.pipeline-duration", "20m");
        if (WEBHOOKS) {
            cluster.withInstanceProperty("changeflow.gitlab.webhooks.secret", HOOK_TOKEN)
                    .withInstanceProperty("changeflow.gitlab.webhooks.fallback-poll-interval", "10m")
                    // the fallback is cut to the pipeline timeout: keep the timeout above it
                    .withInstanceProperty("changeflow.workflow.pipeline.timeout", "30m");
        }
        return cluster.withInstances("solo");
    }

    @Test
    void thePipelinesSuccessEventWakesTheWaitSoTheMergeComesSecondsAfterItNotAtTheTenMinuteFallbackLook() {
        var sims = cluster.sims();
        var alice = cluster.client("solo", "alice");
        // the instance's own reads at start (the setup check, the first drift scan) are not the request's calls
        var startReadsDone = Poll.tryUntil(Duration.ofSeconds(30), Poll.DEFAULT_INTERVAL, () -> sims.gitlabCalls().all(),
                GitLabWebhooksSystemTest::startReadsDone).isPresent();
        var callsBefore = sims.gitlabCalls().all().size();

        var submitted = alice.submit("db-prod-readonly", "svc-webhooks", "system test: GitLab webhooks");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();

        // the waiting step looks at the running pipeline; with webhooks on it then waits for the event (a few seconds
        // in which polling at 300 ms would have read the merge request about ten times), with webhooks off it polls
        var opened = Poll.until("request " + id + " to have its merge request", Duration.ofSeconds(60),
                () -> alice.request(id), v -> v.mergeRequestIid() >= 0 || v.isAtRest());
        var openedIid = opened.mergeRequestIid();
        assertThat(openedIid).as(opened.toString()).isNotNegative();
        var looksBeforeTheEnd = WEBHOOKS ? 1 : LOOKS_WHILE_RUNNING_ON + 1;
        Poll.untilTrue("the waiting step to have read !" + openedIid + " " + looksBeforeTheEnd + " times",
                Duration.ofSeconds(60), () -> sims.gitlabCalls().all().stream()
                        .filter(c -> isMergeRequestRead(c, openedIid)).count() >= looksBeforeTheEnd);
        if (WEBHOOKS) {
            Poll.pause(WAITED_FOR_THE_EVENT);
        }
        sims.gitlab().forcePipeline(SimulatorHost.PROJECT, openedIid, PipelineOutcome.SUCCESS);

        var validated = Poll.until("request " + id + " to be VALIDATED", Duration.ofSeconds(90), () -> alice.request(id),
                v -> v.isAtRest());
        assertThat(validated.status()).as(validated.toString()).isEqualTo("VALIDATED");
        var calls = sims.gitlabCalls().all();
        assertThat(Invariants.deliveredOnItsOwnMergeRequest(sims, validated)).as(validated.toString()).isEmpty();

        var iid = validated.mergeRequestIid();
        var merge = sims.gitlab().mergeRecords().stream()
                .filter(r -> SimulatorHost.PROJECT.equals(r.project()) && r.iid() == iid).findFirst().orElseThrow();
        var mergeCall = calls.stream().filter(c -> c.iid() == iid && c.is("PUT", "merge") && c.status() == 200)
                .findFirst().orElseThrow(() -> new AssertionError("no successful merge call for !" + iid));
        var pipelineSucceeded = pipelineFinishedAt(merge.pipelineId());
        var looksWhileRunning = calls.stream().filter(c -> isMergeRequestRead(c, iid)
                && c.at().isBefore(pipelineSucceeded)).count();
        assertThat(iid).as("the request kept the merge request it opened").isEqualTo(openedIid);
        var successToMerge = Duration.between(pipelineSucceeded, mergeCall.at());

        var mode = WEBHOOKS ? "webhooks on (fallback poll 10 min)" : "webhooks off (polling every 300 ms)";
        Figures.record("GitLab " + mode + ": pipeline success to the merge call",
                successToMerge.toMillis() + " ms (pipeline " + merge.pipelineId() + " finished " + pipelineSucceeded
                        + ", merge call " + mergeCall.at() + "); merge request read " + looksWhileRunning
                        + " times while the pipeline ran; GitLab deliveries the instance took (its inbox): "
                        + gitlabDeliveries());
        Figures.record("GitLab calls per VALIDATED request, " + mode + " (simulator counters)",
                GitLabCalls.perRequest(calls, callsBefore, 1, "VALIDATED request")
                        + (startReadsDone ? "" : "  (the start's own reads were not all seen before the submission)\n"));
        Figures.record("GitLab calls of that request, in order (ms from the first, account, status)",
                callsInOrder(calls.subList(callsBefore, calls.size())));

        assertThat(merge.pipelineStatus()).isEqualTo("success");
        assertThat(looksWhileRunning).as("the step looked while the pipeline ran").isPositive();
        assertThat(successToMerge).as("pipeline success to the merge call").isPositive().isLessThan(WOKEN_WITHIN);
        if (WEBHOOKS) {
            assertThat(gitlabDeliveries()).as("GitLab hook deliveries the instance took into its inbox").isPositive();
            assertThat(looksWhileRunning).as("then it waited for the event, not polling (the fallback is 10 min away)")
                    .isLessThanOrEqualTo(LOOKS_WHILE_RUNNING_ON);
        } else {
            assertThat(gitlabDeliveries()).as("webhooks off: no event taken").isZero();
            assertThat(looksWhileRunning).as("webhooks off: the wait polled").isGreaterThan(LOOKS_WHILE_RUNNING_ON);
        }
    }

    /** A read of merge request {@code iid} itself (the step's look at it). */
    private static boolean isMergeRequestRead(GitLabCalls.Call call, long iid) {
        return call.iid() == iid && call.is("GET", "");
    }

    /**
     * The setup check's last reads (the hooks only with webhooks on) and the first drift scan's reads of main and of
     * every grant file of the sandbox catalog are done.
     */
    private static boolean startReadsDone(List<GitLabCalls.Call> calls) {
        var paths = calls.stream().map(c -> URLDecoder.decode(c.path(), StandardCharsets.UTF_8)).toList();
        return paths.stream().anyMatch(p -> p.endsWith("/push_rule"))
                && (!WEBHOOKS || paths.stream().anyMatch(p -> p.endsWith("/hooks")))
                && paths.stream().anyMatch(p -> p.endsWith("/repository/branches/main"))
                && Stream.of("db-prod-readonly", "dashboards-viewer", "vpn-staging").allMatch(target ->
                        paths.stream().anyMatch(p -> p.endsWith("/repository/files/grants/" + target + ".txt")));
    }

    private static String callsInOrder(List<GitLabCalls.Call> calls) {
        var text = new StringBuilder();
        for (var call : calls) {
            text.append(String.format(Locale.ROOT, "  +%5d  %-15s %-6s %s %d%n",
                    Duration.between(calls.getFirst().at(), call.at()).toMillis(), call.account(), call.method(),
                    call.path(), call.status()));
        }
        return text.toString();
    }

    /** GitLab hook deliveries the instance remembered against repeats (the events it acted on, not the ignored ones). */
    private static long gitlabDeliveries() {
        return Sql.number(cluster.dataSource(), "select count(*) from callback_delivery where source = 'gitlab'");
    }

    /** The pipeline's {@code finished_at} as the GitLab simulator reports it (GitLab's pipeline API, as the maintainer). */
    private static Instant pipelineFinishedAt(long pipelineId) {
        var project = SimulatorHost.PROJECT.replace("/", "%2F");
        var response = cluster.sims().client().send("GET", "/sim/gitlab/api/v4/projects/" + project + "/pipelines/"
                + pipelineId, null, Map.of("PRIVATE-TOKEN", SimulatorHost.MAINTAINER_TOKEN));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return Instant.parse(response.json().path("finished_at").asString());
    }
}
