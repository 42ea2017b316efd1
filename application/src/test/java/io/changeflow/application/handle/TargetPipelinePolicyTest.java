package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 21 item 2: the per-target pipeline policy ({@code changeflow.catalog.targets[n].pipeline}) in every wait for a
 * pipeline of a single request: the create step, the merge evidence, and the wait after a rebase or a regeneration.
 * GitLab's "pipelines must succeed" is off, so only the workflow's own reading keeps a head out.
 */
class TargetPipelinePolicyTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    {
        app.gitlab.pipelinesNeedNotPass();
    }

    private OperationId approvedAndRun(String subject) {
        app.config.set(Settings.APPROVE_FIRST, "true");
        return app.approvedAndRun(subject);
    }

    private String notes(OperationId id) {
        return app.operations.history(id).stream().map(h -> h.detail()).toList().toString();
    }

    @Test
    void aTargetWithoutCiIsMergedWithoutAnyPipelineOnItsCurrentHeadAfterTheApprovals() {
        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.NONE);
        app.gitlab.noPipelines();

        var id = approvedAndRun("nina");

        var mr = app.mr(id);
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.approvers(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
        assertThat(app.gitlab.mergeCalls()).as("merged at once, with the current head pinned").isEqualTo(1);
        assertThat(notes(id)).contains("no pipeline is awaited");
    }

    @Test
    void aTargetWithoutCiInTheCreateFirstOrderAsksForApprovalWithoutWaitingForAPipeline() {
        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.NONE);
        app.gitlab.noPipelines();
        app.config.set(Settings.APPROVE_FIRST, "false");
        var id = app.submitAccepted(FakeTargets.SINGLE, "otto");

        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aTargetWithoutCiStillWaitsUntilTheMergeRequestReportsItsRebasedHeadAndPinsIt() {
        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.NONE);
        app.gitlab.noPipelines().pushLag(3).nextNeedRebase(false);

        var id = approvedAndRun("pia");

        var mr = app.mr(id);
        assertThat(app.gitlab.rebases()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.mergeCalls()).as("never merged on the head GitLab still reported").isEqualTo(1);
        assertThat(app.gitlab.find(mr.project(), mr.iid()).orElseThrow().sha()).isEqualTo(app.gitlab.headSha(mr.project(), mr.iid()));
    }

    @Test
    void aTargetWithoutCiIsRegeneratedAfterARebaseConflictApprovedAgainAndMergedWithoutAPipeline() {
        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.NONE);
        app.gitlab.noPipelines().resetApprovalsOnPush().nextNeedRebase(true);

        var id = approvedAndRun("quinn");

        var mr = app.mr(id);
        assertThat(app.gitlab.rewrites()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.approvers(mr.project(), mr.iid())).as("approved again after the push")
                .containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
    }

    @ParameterizedTest
    @EnumSource(value = PipelineStatus.class, names = {"MANUAL", "SKIPPED"})
    void aPipelineWaitingOnAManualJobOrSkippedCountsWhereThePolicySaysSo(PipelineStatus status) {
        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.MANUAL_COUNTS);
        app.gitlab.nextPipeline(PipelineStatus.RUNNING, PipelineStatus.RUNNING, status);

        var id = approvedAndRun("rosa");

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(notes(id)).contains("counts for this target (pipeline: manual-counts)");
    }

    @Test
    void aCanceledPipelineNeverCountsWhateverThePolicy() {
        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.MANUAL_COUNTS);
        app.gitlab.nextPipeline(PipelineStatus.CANCELED);

        var id = approvedAndRun("sven");

        app.assertNotMergedAt(id, StepStatus.CREATE_PIPELINE_FAILED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(notes(id)).contains("was canceled").contains("Run it again on GitLab, then re-trigger");
    }

    @ParameterizedTest
    @EnumSource(value = PipelineStatus.class, names = {"MANUAL", "SKIPPED"})
    void aRequiredTargetWithAManualOrSkippedPipelineIsNeverMergedAndAPersonIsToldWhatToDo(PipelineStatus status) {
        app.gitlab.nextPipeline(status);

        var id = approvedAndRun("tara");

        assertThat(app.gitlab.merges()).isZero();
        assertThat(app.gitlab.mergeCalls()).isZero();
        app.assertState(id, BindingStatus.CREATE_FAILED, StepStatus.CREATE_PIPELINE_FAILED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(notes(id)).contains("did not run to a result").contains("pipeline: required")
                .contains("pipeline: manual-counts");
    }

    @Test
    void aRequiredTargetWhoseHeadWaitsOnAManualJobAfterItWasApprovedIsBlockedNotMerged() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.pushedToWhenHandleIsNext("ugo", PipelineStatus.MANUAL);

        app.queue.runUntilIdle();

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(app.operations.history(id)).extracting(h -> h.event()).contains(WorkflowEvent.MERGE_BLOCKED);
        assertThat(notes(id)).contains("waits on a manual job");
    }

    @Test
    void theSameHeadWaitingOnAManualJobIsMergedOnceTheTargetCountsIt() {
        app.gitlab.nextNeedRebase(false, PipelineStatus.MANUAL);
        var id = approvedAndRun("vito");
        assertThat(app.op(id).step()).as("required: the rebased head's manual pipeline does not count")
                .isEqualTo(StepStatus.HANDLE_MERGE_BLOCKED);

        app.targets.withPipeline(FakeTargets.SINGLE, PipelinePolicy.MANUAL_COUNTS);
        app.retrigger(id, "the deploy job is manual");
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rebases()).isEqualTo(1);
    }
}
