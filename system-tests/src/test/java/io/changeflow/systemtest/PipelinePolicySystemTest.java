package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.GitLabProjectDefaults;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 21 items 2 and 7 on the packaged application against the GitLab simulator: a target whose project has no CI
 * (no pipeline is ever created, {@code head_pipeline} null; {@code pipeline: none}) reaches VALIDATED; a target that
 * requires a passed pipeline and gets one waiting on a manual job is never merged and stops in an explicit state a
 * person acts on; on a fast-forward-only project ({@code merge_method: ff}) whose main moved on, the product rebases
 * and merges. Manual approvals (the create-first order), GitLab's "pipelines must succeed" off.
 */
class PipelinePolicySystemTest {

    private static final String NO_CI_PROJECT = "platform/no-ci-config";
    private static final String FF_PROJECT = "platform/ff-config";
    private static final String MAIN_PROJECT = "platform/access-config";

    @RegisterExtension
    static final ChangeflowCluster cluster = target(target(target(ChangeflowCluster.create().withInstances("solo")
                    .withSimulatorProperty("sandbox.approval.mode", "manual")
                    .withSimulatorProperty("sandbox.gitlab.projects", MAIN_PROJECT + "," + NO_CI_PROJECT + "," + FF_PROJECT)
                    .withSimulatorProperty("sandbox.gitlab.projects-without-ci", NO_CI_PROJECT),
            3, "no-ci-db", NO_CI_PROJECT, "none"),
            4, "manual-db", MAIN_PROJECT, "required"),
            5, "ff-db", FF_PROJECT, null);

    private static ChangeflowCluster target(ChangeflowCluster cluster, int index, String key, String project, String pipeline) {
        var prefix = "changeflow.catalog.targets[" + index + "].";
        cluster.withInstanceProperty(prefix + "key", key).withInstanceProperty(prefix + "name", key)
                .withInstanceProperty(prefix + "description", "a target of the pipeline policy system test")
                .withInstanceProperty(prefix + "project", project)
                .withInstanceProperty(prefix + "file-path", "grants/" + key + ".txt")
                .withInstanceProperty(prefix + "batchable", "false").withInstanceProperty(prefix + "ask-for", "anyone");
        return pipeline == null ? cluster : cluster.withInstanceProperty(prefix + "pipeline", pipeline);
    }

    @Test
    void aTargetWhoseProjectHasNoCiIsMergedOnItsCurrentHeadAndReachesValidated() {
        var alice = cluster.client("solo", "alice");
        var sims = cluster.sims();
        var id = submit(alice, "no-ci-db", "svc-no-ci");
        approveWhenAsked(alice, id);

        var done = Poll.until("request " + id + " validated", Duration.ofSeconds(90), Duration.ofMillis(500),
                () -> alice.request(id), RequestView::isAtRest);

        assertThat(done.status()).as(done.toString()).isEqualTo("VALIDATED");
        var iid = done.mergeRequestIid();
        assertThat(sims.gitlab().mergeRequestState(NO_CI_PROJECT, iid)).isEqualTo("merged");
        var merge = sims.gitlab().mergeRecords().stream().filter(r -> r.project().equals(NO_CI_PROJECT)).findFirst().orElseThrow();
        assertThat(merge.pipelineStatus()).as("merged without any pipeline").isNull();
        assertThat(sims.gitlab().file(NO_CI_PROJECT, "main", "grants/no-ci-db.txt").orElseThrow()).contains(id);
        assertThat(cluster.client("solo", "otto").operation(id).toString()).contains("no pipeline is awaited");
        Figures.record("target without CI (pipeline: none)", done.status() + ", MR !" + iid + " merged, 0 pipelines");
    }

    @Test
    void aRequiredTargetWhosePipelineWaitsOnAManualJobIsNeverMergedAndAPersonIsToldWhatToDo() {
        var alice = cluster.client("solo", "alice");
        var sims = cluster.sims();
        var id = submit(alice, "manual-db", "svc-manual");
        // the branch the create step is about to push: its pipelines wait on a manual job
        sims.gitlab().forceBranchPipeline(MAIN_PROJECT, "changeflow/" + id, PipelineOutcome.MANUAL);

        var stopped = Poll.until("request " + id + " at rest", Duration.ofSeconds(60), Duration.ofMillis(300),
                () -> alice.request(id), RequestView::isAtRest);

        assertThat(stopped.status()).as(stopped.toString()).isEqualTo("CREATE_FAILED");
        assertThat(stopped.step()).isEqualTo("CREATE_PIPELINE_FAILED");
        assertThat(stopped.hint()).isEqualTo("CONTACT_MAINTAINERS");
        var iid = stopped.mergeRequestIid();
        assertThat(sims.gitlab().mergeRequestState(MAIN_PROJECT, iid)).as("never merged").isEqualTo("opened");
        assertThat(sims.approval().byOperationId(id)).as("never sent for approval").isEmpty();
        assertThat(cluster.client("solo", "otto").operation(id).toString()).contains("waits on a manual job")
                .contains("pipeline: required");
        Figures.record("required target, manual pipeline", stopped.step() + " / " + stopped.hint() + ", MR !" + iid + " open");
    }

    @Test
    void onAFastForwardProjectWhoseMainMovedOnTheRequestIsRebasedAndMerged() {
        var alice = cluster.client("solo", "alice");
        var sims = cluster.sims();
        sims.gitlab().setMergeMethod(FF_PROJECT, GitLabProjectDefaults.MergeMethod.FF);
        var id = submit(alice, "ff-db", "svc-ff");
        var waiting = Poll.until("the merge request's pipeline passed and approval was asked", Duration.ofSeconds(60),
                () -> alice.request(id), v -> "APPROVAL_SENT".equals(v.status()) || v.isAtRest());
        assertThat(waiting.status()).as(waiting.toString()).isEqualTo("APPROVAL_SENT");
        var iid = waiting.mergeRequestIid();
        sims.gitlab().push(FF_PROJECT, "main", Map.of("README.md", "# edited on main\n"), "Edit by hand");
        Poll.until("GitLab says the merge request needs a rebase", Duration.ofSeconds(10),
                () -> sims.gitlab().detailedMergeStatus(FF_PROJECT, iid), "need_rebase"::equals);
        approveWhenAsked(alice, id);

        var done = Poll.until("request " + id + " at rest", Duration.ofSeconds(90), Duration.ofMillis(500),
                () -> alice.request(id), RequestView::isAtRest);

        assertThat(done.status()).as(done.toString()).isEqualTo("VALIDATED");
        assertThat(sims.gitlab().mergeRequestState(FF_PROJECT, iid)).isEqualTo("merged");
        assertThat(sims.gitlab().branchHead(FF_PROJECT, "main")).as("fast-forward: main is the rebased head")
                .contains(sims.gitlab().mergeRequestSha(FF_PROJECT, iid));
        assertThat(sims.gitlab().file(FF_PROJECT, "main", "README.md")).contains("# edited on main\n");
        assertThat(cluster.client("solo", "otto").operation(id).toString()).contains("Rebasing merge request !" + iid);
        Figures.record("fast-forward project, main moved on", done.status() + " after a rebase, MR !" + iid);
    }

    private static String submit(ApiClient client, String target, String subject) {
        var submitted = client.submit(target, subject, "system test");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        return submitted.data().path("operationId").asString();
    }

    private static void approveWhenAsked(ApiClient client, String id) {
        var sims = cluster.sims();
        var ticket = Poll.until("the approval ticket of " + id, Duration.ofSeconds(60), () -> sims.approval().byOperationId(id),
                Optional::isPresent).orElseThrow();
        sims.approval().decide(ticket.ticket(), true, "approver");
    }
}
