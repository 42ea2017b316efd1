package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import io.changeflow.systemtest.harness.SimulatorHost;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 35 on the packaged application: GitLab's merge request answers with its stored {@code head_pipeline}, which
 * stays the previous head's after a push until the new head's pipeline is created, and for good when the push creates
 * none. Approve-later order, manual approvals: the merge request's pipeline passes, someone edits the same grant file on
 * main, the request is approved, merging conflicts and the change is generated again (a push). With that push's
 * pipeline created late, nothing is merged until it passed; with none created, the request ends in a state a person
 * owns saying no pipeline ran for the commit, and nothing is merged. Each on both GitLab profiles, on one cluster.
 * The same cluster also runs the setup check on the jar ({@code GET /ops/gitlab-check}).
 */
class StalePipelineSystemTest {

    /** How long after the regeneration's push its pipeline is created in the late case (the pipeline then takes 2 s). */
    private static final Duration LATE = Duration.ofSeconds(2);

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(5).withInstances("solo")
            .withSimulatorProperty("sandbox.approval.mode", "manual")
            // a short wait for a pipeline: 5 s, then pending, looked at every second for 4 s more
            .withInstanceProperty("changeflow.workflow.pipeline.timeout", "5s")
            .withInstanceProperty("changeflow.workflow.pending-recheck", "1s")
            .withInstanceProperty("changeflow.workflow.pipeline.pending-deadline", "4s");

    @AfterEach
    void gitLabsDefaults() {
        cluster.sims().gitlab().setPipelineCreationDelay(Duration.ZERO);
        cluster.sims().gitlab().createPipelines(SimulatorHost.PROJECT, true);
        cluster.sims().gitlab().setBehaviour(Profile.GITLAB_17, false, Duration.ZERO);
        cluster.sims().gitlab().allowedToMerge(SimulatorHost.PROJECT, "main", Set.of());
        cluster.sims().gitlab().setMergeTrains(SimulatorHost.PROJECT, false);
        cluster.sims().gitlab().requireStatusChecks(SimulatorHost.PROJECT, false);
    }

    /**
     * The setup check on the packaged application: what GitLab's settings will stop, found before a request fails on
     * it. A bot left out of "Allowed to merge" on main and merge trains turned on are both reported as blocking, with
     * what to do; for operators only.
     */
    @Test
    void theSetupCheckReportsABotWithoutMergeRightsAndAProjectWithMergeTrains() {
        var otto = cluster.client("solo", "otto");
        var before = otto.get("/ops/gitlab-check");
        assertThat(before.status()).as(before.toString()).isEqualTo(200);
        assertThat(before.data().path("blocking").asInt()).as(before.toString()).isZero();

        cluster.sims().gitlab().allowedToMerge(SimulatorHost.PROJECT, "main", Set.of("approval-bot-1"));
        cluster.sims().gitlab().setMergeTrains(SimulatorHost.PROJECT, true);
        var after = otto.get("/ops/gitlab-check");

        assertThat(after.data().path("blocking").asInt()).as(after.toString()).isEqualTo(2);
        var findings = after.data().path("findings").toString();
        assertThat(findings).contains("AUTHOR_MAY_NOT_MERGE", "MERGE_TRAINS", SimulatorHost.PROJECT,
                "Maintainer or allow it on the protected branch main");
        assertThat(cluster.client("solo", "alice").get("/ops/gitlab-check").status()).isEqualTo(403);
    }

    /**
     * What blocks a merge on GitLab, switched over the simulator's HTTP control API: an approved request whose merge
     * request is a draft stops for a person saying so, never merged; marked ready, a re-trigger meets the project's
     * pending external status check and stops again saying that; once the check passed, a re-trigger merges it.
     */
    @Test
    void aDraftAndAPendingStatusCheckEachStopTheMergeForAPersonAndARetriggerMergesOnceCleared() {
        var target = InstanceSettings.plainTargetKey(5);
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        var sims = cluster.sims();
        var control = sims.client();
        var project = "/sim/gitlab/_control/projects/" + SimulatorHost.PROJECT.replace("/", "%2F");
        var waiting = awaitingApproval(alice, target, "svc-blocked");
        var id = waiting.operationId();
        var iid = waiting.iid();
        var mr = project + "/merge_requests/" + iid;
        assertThat(control.put(mr + "/draft", Map.of("draft", true)).status()).isEqualTo(204);
        assertThat(control.put(project + "/require_status_checks", Map.of("required", true)).status()).isEqualTo(204);
        var ticket = Poll.until("the approval ticket", Duration.ofSeconds(30), () -> sims.approval().byOperationId(id),
                Optional::isPresent).orElseThrow();
        sims.approval().decide(ticket.ticket(), true, "approver");

        var draft = atRest(alice, id, null);
        assertBlockedForAPerson(draft, iid);
        assertThat(otto.operation(id).toString()).contains("it is a draft: someone marks it ready");

        control.put(mr + "/draft", Map.of("draft", false));
        assertThat(otto.post("/ops/operations/" + id + "/retrigger", null).status()).isEqualTo(200);
        var statusCheck = atRest(alice, id, draft.updatedAt());
        assertBlockedForAPerson(statusCheck, iid);
        assertThat(otto.operation(id).toString()).contains("its external status checks have not passed");

        control.put(mr + "/status_checks", Map.of("status", "passed"));
        assertThat(otto.post("/ops/operations/" + id + "/retrigger", null).status()).isEqualTo(200);
        var done = Poll.until("request " + id + " converged after the re-trigger", Duration.ofSeconds(60),
                Duration.ofMillis(500), () -> alice.request(id),
                v -> v.hasConverged() && !statusCheck.updatedAt().equals(v.updatedAt()));

        assertThat(done.status()).as(done.toString()).isIn("MERGED", "VALIDATED");
        assertThat(sims.gitlab().mergeRecords()).anyMatch(r -> r.iid() == iid);
        assertThat(sims.grantLinesOnMain(grantFile(target), id)).isEqualTo(1);
        Figures.record("draft, then a pending status check, then merged (packaged jar)", done.outcome());
    }

    private static RequestView atRest(ApiClient client, String id, String movedFrom) {
        return Poll.until("request " + id + " at rest", Duration.ofSeconds(60), Duration.ofMillis(500),
                () -> client.request(id), v -> v.isAtRest() && (movedFrom == null || !movedFrom.equals(v.updatedAt())));
    }

    private static void assertBlockedForAPerson(RequestView view, long iid) {
        assertThat(view.status()).as(view.toString()).isEqualTo("HANDLE_FAILED");
        assertThat(view.step()).isEqualTo("HANDLE_MERGE_BLOCKED");
        assertThat(view.hint()).isEqualTo("CONTACT_MAINTAINERS");
        assertThat(cluster.sims().gitlab().mergeRequestState(SimulatorHost.PROJECT, iid)).as("not merged").isEqualTo("opened");
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aPushWhosePipelineIsCreatedLateIsMergedOnlyOnceThatHeadsOwnPipelinePassed(Profile profile) {
        var target = InstanceSettings.plainTargetKey(profile.ordinal() + 1);
        var sims = cluster.sims();
        sims.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var alice = cluster.client("solo", "alice");
        var iid = approvedAfterMainChanged(alice, target, "svc-late-" + profile.ordinal(),
                () -> sims.gitlab().setPipelineCreationDelay(LATE));
        var id = iid.operationId();

        var done = Poll.until("request " + id + " converged", Duration.ofSeconds(90), Duration.ofMillis(500),
                () -> alice.request(id), RequestView::hasConverged);

        assertThat(done.status()).as(done.toString()).isIn("MERGED", "VALIDATED");
        var merge = sims.gitlab().mergeRecords().stream().filter(r -> r.iid() == iid.iid()).findFirst().orElseThrow();
        assertThat(merge.pipelineStatus()).as("the merged head's own pipeline existed and passed").isEqualTo("success");
        assertThat(sims.grantLinesOnMain(grantFile(target), id)).isEqualTo(1);
        Figures.record("stale head pipeline, late pipeline (" + profile.settingName() + ")", done.outcome());
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aPushThatGetsNoPipelineIsNeverMergedAndAPersonIsToldNoPipelineRan(Profile profile) {
        var target = InstanceSettings.plainTargetKey(profile.ordinal() + 3);
        var sims = cluster.sims();
        sims.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var alice = cluster.client("solo", "alice");
        var iid = approvedAfterMainChanged(alice, target, "svc-none-" + profile.ordinal(),
                () -> sims.gitlab().createPipelines(SimulatorHost.PROJECT, false));
        var id = iid.operationId();

        var done = Poll.until("request " + id + " converged", Duration.ofSeconds(90), Duration.ofMillis(500),
                () -> alice.request(id), RequestView::hasConverged);

        assertThat(done.status()).as(done.toString()).isEqualTo("HANDLE_FAILED");
        assertThat(done.step()).isEqualTo("HANDLE_PIPELINE_UNFINISHED");
        assertThat(done.hint()).isEqualTo("CONTACT_MAINTAINERS");
        assertThat(sims.gitlab().mergeRequestState(SimulatorHost.PROJECT, iid.iid())).as("never merged").isEqualTo("opened");
        assertThat(sims.gitlab().mergeRecords()).noneMatch(r -> r.iid() == iid.iid());
        assertThat(sims.grantLinesOnMain(grantFile(target), id)).isZero();
        assertThat(cluster.client("solo", "otto").operation(id).toString()).contains("No pipeline ran for this commit");
        Figures.record("stale head pipeline, no pipeline (" + profile.settingName() + ")", done.outcome());
    }

    /** The request's operation ID and merge request. */
    private record Submitted(String operationId, long iid) {}

    /**
     * Submits for {@code subject}, waits until the merge request's pipeline passed and the approval was asked, edits
     * the same grant file on main by hand, sets GitLab up with {@code beforeTheRegeneration} and approves: the merge
     * conflicts and the change is generated again, a push.
     */
    private static Submitted approvedAfterMainChanged(ApiClient client, String target, String subject,
                                                      Runnable beforeTheRegeneration) {
        var sims = cluster.sims();
        var waiting = awaitingApproval(client, target, subject);
        var id = waiting.operationId();
        sims.gitlab().push(SimulatorHost.PROJECT, "main", Map.of(grantFile(target), "# edited by hand on main\n"),
                "Edit by hand");
        beforeTheRegeneration.run();
        var ticket = Poll.until("the approval ticket", Duration.ofSeconds(30), () -> sims.approval().byOperationId(id),
                Optional::isPresent).orElseThrow();
        sims.approval().decide(ticket.ticket(), true, "approver");
        return waiting;
    }

    /** Submits for {@code subject} and waits until the merge request's pipeline passed and the approval was asked. */
    private static Submitted awaitingApproval(ApiClient client, String target, String subject) {
        var submitted = client.submit(target, subject, "system test");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var waiting = Poll.until("the merge request's pipeline passed and approval was asked", Duration.ofSeconds(60),
                () -> client.request(id), v -> "APPROVAL_SENT".equals(v.status()) || v.isAtRest());
        assertThat(waiting.status()).as(waiting.toString()).isEqualTo("APPROVAL_SENT");
        return new Submitted(id, waiting.mergeRequestIid());
    }

    private static String grantFile(String target) {
        return "grants/" + target + ".txt";
    }
}
